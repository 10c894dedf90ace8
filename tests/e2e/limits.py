"""Discord's documented payload limits, checked the way Discord checks them.

Each check appends problems to a `Problems` list; the fake turns a non-empty list into Discord's
400 body (code 50035, "Invalid Form Body", errors nested by field path), so a bot that only works
because the fake was lenient fails here exactly as it would in production.
"""

from __future__ import annotations

import unicodedata
from typing import Any

JSON = dict[str, Any]
Path = tuple[str | int, ...]

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
SELECT_OPTIONS_MAX = 25
LABEL_MAX = 80
CUSTOM_ID_MAX = 100
PLACEHOLDER_MAX = 150
OPTION_TEXT_MAX = 100
ATTACHMENTS_MAX = 10
CHOICES_MAX = 25
COMMANDS_MAX = 100
COMMAND_OPTIONS_MAX = 25
COMMAND_TOTAL_MAX = 4000

FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15


class Problems:
    """Problems found in one request body, keyed by the path of the offending field."""

    def __init__(self) -> None:
        self.items: list[tuple[Path, str, str]] = []

    def add(self, path: Path, code: str, message: str) -> None:
        self.items.append((path, code, message))

    def __bool__(self) -> bool:
        return bool(self.items)

    def errors(self) -> JSON:
        """Discord's nested error tree: {"content": {"_errors": [{"code", "message"}]}}."""
        tree: JSON = {}
        for path, code, message in self.items:
            node = tree
            for part in path:
                node = node.setdefault(str(part), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return tree


def _max_len(problems: Problems, path: Path, value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        problems.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _required_text(problems: Problems, path: Path, value: Any, low: int, high: int) -> None:
    if not isinstance(value, str):
        problems.add(path, "BASE_TYPE_REQUIRED", "This field is required")
    elif not low <= len(value) <= high:
        problems.add(
            path,
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between {low} and {high} in length.",
        )


def check_message(
    body: JSON, problems: Problems, *, files: int, existing_attachments: int = 0
) -> None:
    """A message create/edit body (channel message, interaction response data, webhook)."""
    content = body.get("content")
    if content is not None and not isinstance(content, str):
        problems.add(("content",), "BASE_TYPE_STRING", "Could not interpret value as string.")
    _max_len(problems, ("content",), content, CONTENT_MAX)
    embeds = body.get("embeds") or []
    if len(embeds) > EMBEDS_MAX:
        problems.add(
            ("embeds",), "BASE_TYPE_MAX_LENGTH", f"Must be {EMBEDS_MAX} or fewer in length."
        )
    total = 0
    for i, embed in enumerate(embeds):
        total += check_embed(embed, problems, ("embeds", i))
    if total > EMBED_TOTAL_MAX:
        problems.add(
            ("embeds",), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"
        )
    components = body.get("components")
    if components is not None:
        if int(body.get("flags") or 0) & FLAG_COMPONENTS_V2:
            _check_components_v2(components, problems)
        else:
            check_components(components, problems)
    attachments = body.get("attachments")
    count = len(attachments) if isinstance(attachments, list) else files + existing_attachments
    if max(count, files) > ATTACHMENTS_MAX:
        problems.add(
            ("attachments",),
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {ATTACHMENTS_MAX} or fewer in length.",
        )
    flags = int(body.get("flags") or 0)
    allowed = (
        FLAG_SUPPRESS_EMBEDS | FLAG_EPHEMERAL | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
    )
    if flags & ~allowed:
        problems.add(("flags",), "MESSAGE_FLAGS_INVALID", "Invalid message flags")


def check_embed(embed: JSON, problems: Problems, path: Path) -> int:
    """Checks one embed and returns its character count toward the 6000 total."""
    size = 0
    for key, limit in (("title", 256), ("description", 4096)):
        value = embed.get(key)
        _max_len(problems, (*path, key), value, limit)
        size += len(value) if isinstance(value, str) else 0
    footer = embed.get("footer") or {}
    _max_len(problems, (*path, "footer", "text"), footer.get("text"), 2048)
    size += len(footer.get("text") or "")
    author = embed.get("author") or {}
    _max_len(problems, (*path, "author", "name"), author.get("name"), 256)
    size += len(author.get("name") or "")
    fields = embed.get("fields") or []
    if len(fields) > 25:
        problems.add((*path, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for i, field in enumerate(fields):
        _required_text(problems, (*path, "fields", i, "name"), field.get("name"), 1, 256)
        _required_text(problems, (*path, "fields", i, "value"), field.get("value"), 1, 1024)
        size += len(str(field.get("name") or "")) + len(str(field.get("value") or ""))
    return size


def check_components(rows: Any, problems: Problems) -> None:
    """Classic components: up to 5 action rows of up to 5 buttons or exactly one select."""
    if not isinstance(rows, list):
        problems.add(("components",), "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if len(rows) > ROWS_MAX:
        problems.add(
            ("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {ROWS_MAX} or fewer in length."
        )
    seen: set[str] = set()
    for r, row in enumerate(rows):
        path: Path = ("components", r)
        if row.get("type") != 1:
            problems.add((*path, "type"), "UNION_TYPE_CHOICES", "Value must be one of {1}.")
            continue
        children = row.get("components") or []
        if not children:
            problems.add(
                (*path, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length."
            )
        selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
        if selects and len(children) > 1:
            problems.add(
                (*path, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        if len(children) > ROW_BUTTONS_MAX:
            problems.add(
                (*path, "components"),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {ROW_BUTTONS_MAX} or fewer in length.",
            )
        for c, comp in enumerate(children):
            _check_component(comp, problems, (*path, "components", c), seen)


def _check_custom_id(comp: JSON, problems: Problems, path: Path, seen: set[str]) -> None:
    custom_id = comp.get("custom_id")
    _required_text(problems, (*path, "custom_id"), custom_id, 1, CUSTOM_ID_MAX)
    if isinstance(custom_id, str):
        if custom_id in seen:
            problems.add(
                (*path, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        seen.add(custom_id)


def _check_component(comp: JSON, problems: Problems, path: Path, seen: set[str]) -> None:
    kind = comp.get("type")
    if kind == 2:
        style = comp.get("style")
        if style not in (1, 2, 3, 4, 5, 6):
            problems.add(
                (*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4, 5, 6)."
            )
        _max_len(problems, (*path, "label"), comp.get("label"), LABEL_MAX)
        if not comp.get("label") and not comp.get("emoji") and style != 6:
            problems.add(
                (*path, "label"), "BUTTON_LABEL_OR_EMOJI_REQUIRED", "Label or emoji required"
            )
        if style == 5:
            if not comp.get("url") or comp.get("custom_id"):
                problems.add((*path, "url"), "BUTTON_COMPONENT_URL_REQUIRED", "A url is required")
        elif style in (1, 2, 3, 4):
            _check_custom_id(comp, problems, path, seen)
    elif kind in (3, 5, 6, 7, 8):
        _check_custom_id(comp, problems, path, seen)
        _max_len(problems, (*path, "placeholder"), comp.get("placeholder"), PLACEHOLDER_MAX)
        low = comp.get("min_values", 1)
        high = comp.get("max_values", 1)
        if not 0 <= low <= 25:
            problems.add((*path, "min_values"), "NUMBER_TYPE_MAX", "Must be between 0 and 25.")
        if not 1 <= high <= 25:
            problems.add((*path, "max_values"), "NUMBER_TYPE_MAX", "Must be between 1 and 25.")
        if kind == 3:
            options = comp.get("options") or []
            if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
                problems.add(
                    (*path, "options"),
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 1 and {SELECT_OPTIONS_MAX} in length.",
                )
            if high > len(options) or low > high:
                problems.add(
                    (*path, "max_values"),
                    "SELECT_COMPONENT_MAX_VALUES_OUT_OF_BOUNDS",
                    "max_values must be between min_values and the number of options",
                )
            values: set[str] = set()
            for o, option in enumerate(options):
                opath = (*path, "options", o)
                _required_text(problems, (*opath, "label"), option.get("label"), 1, OPTION_TEXT_MAX)
                _required_text(problems, (*opath, "value"), option.get("value"), 1, OPTION_TEXT_MAX)
                _max_len(problems, (*opath, "description"), option.get("description"), 100)
                if option.get("value") in values:
                    problems.add(
                        (*opath, "value"),
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Select option values must be unique",
                    )
                values.add(option.get("value"))
    else:
        problems.add(
            (*path, "type"), "UNION_TYPE_CHOICES", "Value must be one of {2, 3, 5, 6, 7, 8}."
        )


def _check_components_v2(components: Any, problems: Problems) -> None:
    """Components V2 layouts: only the total count is checked (40 components, nested included)."""

    def count(items: Any) -> int:
        total = 0
        for item in items or []:
            total += 1 + count(item.get("components")) + (1 if item.get("accessory") else 0)
        return total

    if count(components) > 40:
        problems.add(("components",), "BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer in length.")


def check_choices(choices: Any, problems: Problems, path: Path = ("data", "choices")) -> None:
    if not isinstance(choices, list):
        problems.add(path, "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if len(choices) > CHOICES_MAX:
        problems.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {CHOICES_MAX} or fewer in length.")
    for i, choice in enumerate(choices):
        _required_text(problems, (*path, i, "name"), choice.get("name"), 1, 100)
        value = choice.get("value")
        if isinstance(value, str):
            _max_len(problems, (*path, i, "value"), value, 100)
        elif not isinstance(value, int | float) or isinstance(value, bool):
            problems.add((*path, i, "value"), "BASE_TYPE_REQUIRED", "This field is required")


def valid_name(name: Any, *, chat_input: bool = True) -> bool:
    """Discord's command/option name rule: 1-32 chars of letters, digits, - _ ', lower case."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return False
    if not chat_input:
        return True
    for ch in name:
        if ch in "-_'":
            continue
        if unicodedata.category(ch)[0] not in "LN" and not ch.isdigit():
            return False
    return name == name.lower()


def check_commands(commands: Any, problems: Problems) -> None:
    """A bulk overwrite body: a list of application commands."""
    if not isinstance(commands, list):
        problems.add((), "BASE_TYPE_ARRAY", "Must be an array.")
        return
    by_type: dict[int, list[str]] = {}
    for i, command in enumerate(commands):
        kind = command.get("type", 1)
        name = command.get("name")
        by_type.setdefault(kind, []).append(name)
        path: Path = (i,)
        if not valid_name(name, chat_input=kind == 1):
            problems.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Invalid name")
        if kind == 1:
            _required_text(problems, (*path, "description"), command.get("description"), 1, 100)
        elif command.get("description"):
            problems.add(
                (*path, "description"),
                "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION",
                "Context menu commands cannot have a description",
            )
        _check_options(command.get("options") or [], problems, (*path, "options"), depth=0)
        if kind == 1 and _command_size(command) > COMMAND_TOTAL_MAX:
            problems.add(
                path, "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (4000)"
            )
    for kind, names in by_type.items():
        if len(names) != len(set(names)):
            problems.add(
                (),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                "Application command names must be unique",
            )
        limit = COMMANDS_MAX if kind == 1 else 5
        if len(names) > limit:
            problems.add((), "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _command_size(item: JSON) -> int:
    size = len(item.get("name") or "") + len(item.get("description") or "")
    for choice in item.get("choices") or []:
        size += len(str(choice.get("name"))) + len(str(choice.get("value")))
    for option in item.get("options") or []:
        size += _command_size(option)
    return size


def _check_options(options: list[JSON], problems: Problems, path: Path, depth: int) -> None:
    if len(options) > COMMAND_OPTIONS_MAX:
        problems.add(
            path, "BASE_TYPE_MAX_LENGTH", f"Must be {COMMAND_OPTIONS_MAX} or fewer in length."
        )
    names = [o.get("name") for o in options]
    if len(names) != len(set(names)):
        problems.add(
            path, "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique"
        )
    nested = [o.get("type") in (1, 2) for o in options]
    if any(nested) and not all(nested):
        problems.add(
            path,
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-command and sub-command group option types are mutually exclusive to all others",
        )
    seen_optional = False
    for i, option in enumerate(options):
        opath = (*path, i)
        kind = option.get("type")
        if not valid_name(option.get("name")):
            problems.add((*opath, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Invalid name")
        _required_text(problems, (*opath, "description"), option.get("description"), 1, 100)
        if kind not in range(1, 12):
            problems.add((*opath, "type"), "BASE_TYPE_CHOICES", "Value must be one of 1..11.")
        if kind == 2 and depth > 0:
            problems.add(
                (*opath, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Groups nest once"
            )
        if kind == 1 and depth > 1:
            problems.add((*opath, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Too deep")
        if kind in (1, 2):
            _check_options(option.get("options") or [], problems, (*opath, "options"), depth + 1)
            continue
        if option.get("required"):
            if seen_optional:
                problems.add(
                    (*opath, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True
        choices = option.get("choices")
        if choices:
            if option.get("autocomplete"):
                problems.add(
                    (*opath, "autocomplete"),
                    "APPLICATION_COMMAND_OPTIONS_AUTOCOMPLETE_AND_CHOICES",
                    "Autocomplete cannot be set with choices",
                )
            check_choices(choices, problems, (*opath, "choices"))
