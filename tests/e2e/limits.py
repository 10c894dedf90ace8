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
    body: JSON,
    problems: Problems,
    *,
    files: int,
    existing_attachments: int = 0,
    filenames: frozenset[str] | set[str] = frozenset(),
    was_v2: bool = False,
    old_content: str = "",
    old_embeds: int = 0,
) -> None:
    """A message create/edit body (channel message, interaction response data, webhook).

    `filenames` are the attachments the message will have (this request's uploads, plus on an
    edit the kept ones): what a Components V2 `attachment://<name>` may refer to. `was_v2` /
    `old_content` / `old_embeds` describe the message an edit changes.
    """
    flags = body.get("flags")
    v2 = bool(int(flags) & FLAG_COMPONENTS_V2) if flags is not None else was_v2
    if was_v2 and flags is not None and not v2:
        problems.add(
            ("flags",),
            "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
            "The IS_COMPONENTS_V2 flag cannot be removed from a message",
        )
    content = body.get("content")
    if content is not None and not isinstance(content, str):
        problems.add(("content",), "BASE_TYPE_STRING", "Could not interpret value as string.")
    _max_len(problems, ("content",), content, CONTENT_MAX)
    embeds = body.get("embeds") or []
    if v2:
        # Discord refuses the legacy fields outright, and an edit that turns a message into a
        # V2 one must clear them (send null) if the message had them.
        kept_content = old_content if "content" not in body else content
        kept_embeds = old_embeds if "embeds" not in body else len(embeds)
        for key, present in (("content", bool(kept_content)), ("embeds", bool(kept_embeds))):
            if present:
                problems.add(
                    (key,),
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    f"The '{key}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
                )
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
        if v2:
            check_components_v2(components, problems, filenames=filenames)
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
    allowed = (
        FLAG_SUPPRESS_EMBEDS | FLAG_EPHEMERAL | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
    )
    if int(flags or 0) & ~allowed:
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
        _check_row(row, problems, ("components", r), seen)


def _check_row(row: Any, problems: Problems, path: Path, seen: set[str]) -> None:
    """One action row: up to 5 buttons, or exactly one select."""
    if not isinstance(row, dict) or row.get("type") != 1:
        problems.add((*path, "type"), "UNION_TYPE_CHOICES", "Value must be one of {1}.")
        return
    children = row.get("components") or []
    if not children:
        problems.add((*path, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
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


# Components V2 types (Discord's numbers) and where each may appear.
ACTION_ROW, BUTTON, SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = (
    1,
    2,
    9,
    10,
    11,
    12,
    13,
    14,
    17,
)
V2_TOTAL_MAX = 40
V2_TEXT_MAX = 4000
GALLERY_ITEMS_MAX = 10
MEDIA_DESCRIPTION_MAX = 1024
_TOP_LEVEL = (ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER)
_IN_CONTAINER = (ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR)


def count_components_v2(items: Any) -> int:
    """Discord's count toward the 40: every component, nested ones and accessories included."""
    total = 0
    for item in items or []:
        if isinstance(item, dict):
            total += 1 + count_components_v2(item.get("components"))
            total += 1 if item.get("accessory") else 0
    return total


def check_components_v2(
    components: Any, problems: Problems, *, filenames: frozenset[str] | set[str] = frozenset()
) -> None:
    """A Components V2 layout: types in their places, 40 components, 4000 characters of text,
    media galleries of 1-10 items whose `attachment://` urls name files of the message."""
    if not isinstance(components, list):
        problems.add(("components",), "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if not components:
        problems.add(("components",), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
    if count_components_v2(components) > V2_TOTAL_MAX:
        problems.add(
            ("components",),
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {V2_TOTAL_MAX} or fewer in length.",
        )
    seen: set[str] = set()
    text = [0]
    for i, comp in enumerate(components):
        _check_v2(comp, problems, ("components", i), _TOP_LEVEL, seen, text, filenames)
    if text[0] > V2_TEXT_MAX:
        problems.add(
            ("components",),
            "COMPONENTS_V2_TEXT_TOO_LONG",
            f"The total length of text in components must be {V2_TEXT_MAX} or fewer.",
        )


def _bad_type(problems: Problems, path: Path, allowed: tuple[int, ...]) -> None:
    choices = ", ".join(str(t) for t in allowed)
    problems.add((*path, "type"), "UNION_TYPE_CHOICES", f"Value must be one of {{{choices}}}.")


def _check_media(
    media: Any, problems: Problems, path: Path, filenames: frozenset[str] | set[str]
) -> None:
    url = media.get("url") if isinstance(media, dict) else None
    if not isinstance(url, str) or not url:
        problems.add((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
        return
    if url.startswith("attachment://"):
        if url[len("attachment://") :] not in filenames:
            problems.add(
                (*path, "url"),
                "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                f"Attachment {url!r} was not found in the message's attachments.",
            )
    elif not url.startswith(("http://", "https://")):
        problems.add((*path, "url"), "URL_TYPE_INVALID_URL", "Not a well formed URL.")


def _check_v2(
    comp: Any,
    problems: Problems,
    path: Path,
    allowed: tuple[int, ...],
    seen: set[str],
    text: list[int],
    filenames: frozenset[str] | set[str],
) -> None:
    if not isinstance(comp, dict) or comp.get("type") not in allowed:
        _bad_type(problems, path, allowed)
        return
    kind = comp["type"]
    children = comp.get("components")
    if kind == CONTAINER:
        if not isinstance(children, list) or not children:
            problems.add(
                (*path, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length."
            )
            return
        accent = comp.get("accent_color")
        if accent is not None and not (isinstance(accent, int) and 0 <= accent <= 0xFFFFFF):
            problems.add((*path, "accent_color"), "NUMBER_TYPE_MAX", "Must be 16777215 or less.")
        for c, child in enumerate(children):
            _check_v2(
                child, problems, (*path, "components", c), _IN_CONTAINER, seen, text, filenames
            )
    elif kind == ACTION_ROW:
        _check_row(comp, problems, path, seen)
    elif kind == TEXT_DISPLAY:
        content = comp.get("content")
        if not isinstance(content, str) or not content:
            problems.add((*path, "content"), "BASE_TYPE_REQUIRED", "This field is required")
        else:
            text[0] += len(content)
    elif kind == SECTION:
        if not isinstance(children, list) or not 1 <= len(children) <= 3:
            problems.add(
                (*path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 3 in length."
            )
        for c, child in enumerate(children or []):
            _check_v2(
                child, problems, (*path, "components", c), (TEXT_DISPLAY,), seen, text, filenames
            )
        accessory = comp.get("accessory")
        if accessory is None:
            problems.add((*path, "accessory"), "BASE_TYPE_REQUIRED", "This field is required")
        elif isinstance(accessory, dict) and accessory.get("type") == BUTTON:
            _check_component(accessory, problems, (*path, "accessory"), seen)
        else:
            _check_v2(
                accessory, problems, (*path, "accessory"), (THUMBNAIL,), seen, text, filenames
            )
    elif kind == THUMBNAIL:
        _check_media(comp.get("media"), problems, (*path, "media"), filenames)
        _max_len(problems, (*path, "description"), comp.get("description"), MEDIA_DESCRIPTION_MAX)
    elif kind == MEDIA_GALLERY:
        items = comp.get("items")
        if not isinstance(items, list) or not 1 <= len(items) <= GALLERY_ITEMS_MAX:
            problems.add(
                (*path, "items"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {GALLERY_ITEMS_MAX} in length.",
            )
        for m, item in enumerate(items if isinstance(items, list) else []):
            ipath = (*path, "items", m)
            media = item.get("media") if isinstance(item, dict) else None
            _check_media(media, problems, (*ipath, "media"), filenames)
            if isinstance(item, dict):
                _max_len(
                    problems,
                    (*ipath, "description"),
                    item.get("description"),
                    MEDIA_DESCRIPTION_MAX,
                )
    elif kind == FILE:
        media = comp.get("file")
        url = media.get("url") if isinstance(media, dict) else None
        if not isinstance(url, str) or not url.startswith("attachment://"):
            problems.add(
                (*path, "file", "url"),
                "BASE_TYPE_REQUIRED",
                "A file component needs an attachment:// url",
            )
        else:
            _check_media(media, problems, (*path, "file"), filenames)
    elif kind == SEPARATOR and comp.get("spacing", 1) not in (1, 2):
        problems.add((*path, "spacing"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")


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
        if kind != 1 and command.get("options"):
            problems.add(
                (*path, "options"),
                "APPLICATION_COMMAND_OPTIONS_INVALID",
                "Context menu commands cannot have options",
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


STRING_OPTION, INTEGER_OPTION, NUMBER_OPTION = 3, 4, 10
OPTION_LENGTH_MAX = 6000


def _check_options(
    options: list[JSON], problems: Problems, path: Path, depth: int, parent: int = 0
) -> None:
    """Options of a command (parent 0), a subcommand group (2) or a subcommand (1).

    A command holds up to 25 subcommands/groups or up to 25 plain options; a group holds only
    subcommands (up to 25); a subcommand holds only plain options (up to 25).
    """
    if not isinstance(options, list):
        problems.add(path, "BASE_TYPE_ARRAY", "Must be an array.")
        return
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
        if kind == 2 and parent != 0:
            problems.add(
                (*opath, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Groups nest once"
            )
        if kind == 1 and parent == 1:
            problems.add(
                (*opath, "type"),
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "A subcommand cannot hold subcommands",
            )
        if parent == 2 and kind != 1:
            problems.add(
                (*opath, "type"),
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "A subcommand group holds only subcommands",
            )
        if kind in (1, 2):
            _check_options(
                option.get("options") or [], problems, (*opath, "options"), depth + 1, kind
            )
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
        _check_option_bounds(option, problems, opath, kind)
        choices = option.get("choices")
        if choices:
            if kind not in (STRING_OPTION, INTEGER_OPTION, NUMBER_OPTION):
                problems.add(
                    (*opath, "choices"),
                    "APPLICATION_COMMAND_OPTIONS_CHOICES_INVALID",
                    "Only string, integer and number options can have choices",
                )
            if option.get("autocomplete"):
                problems.add(
                    (*opath, "autocomplete"),
                    "APPLICATION_COMMAND_OPTIONS_AUTOCOMPLETE_AND_CHOICES",
                    "Autocomplete cannot be set with choices",
                )
            check_choices(choices, problems, (*opath, "choices"))
        if option.get("autocomplete") and kind not in (
            STRING_OPTION,
            INTEGER_OPTION,
            NUMBER_OPTION,
        ):
            problems.add(
                (*opath, "autocomplete"),
                "APPLICATION_COMMAND_OPTIONS_AUTOCOMPLETE_INVALID",
                "Only string, integer and number options can autocomplete",
            )


def _check_option_bounds(option: JSON, problems: Problems, path: Path, kind: Any) -> None:
    """min/max_length (strings: 0-6000 / 1-6000), min/max_value (integers and numbers)."""
    for key, low in (("min_length", 0), ("max_length", 1)):
        value = option.get(key)
        if value is None:
            continue
        if kind != STRING_OPTION:
            problems.add((*path, key), "APPLICATION_COMMAND_OPTION_INVALID", "Strings only")
        elif not isinstance(value, int) or not low <= value <= OPTION_LENGTH_MAX:
            problems.add(
                (*path, key),
                "NUMBER_TYPE_MAX",
                f"Must be between {low} and {OPTION_LENGTH_MAX}.",
            )
    low_len, high_len = option.get("min_length"), option.get("max_length")
    if isinstance(low_len, int) and isinstance(high_len, int) and low_len > high_len:
        problems.add((*path, "min_length"), "NUMBER_TYPE_MAX", "Must be at most max_length.")
    for key in ("min_value", "max_value"):
        if option.get(key) is not None and kind not in (INTEGER_OPTION, NUMBER_OPTION):
            problems.add((*path, key), "APPLICATION_COMMAND_OPTION_INVALID", "Numbers only")
    low_v, high_v = option.get("min_value"), option.get("max_value")
    if isinstance(low_v, int | float) and isinstance(high_v, int | float) and low_v > high_v:
        problems.add((*path, "min_value"), "NUMBER_TYPE_MAX", "Must be at most max_value.")
