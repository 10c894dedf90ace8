"""Test kits shared by the games' engine tests: written once, given each game's rules and data."""
