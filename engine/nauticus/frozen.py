"""Faster construction of the engine's frozen dataclasses (issue 22).

A frozen dataclass's generated __init__ sets each field through `object.__setattr__`, to get
past the class's own __setattr__, which refuses every change. The engine builds several such
objects on every move (the new state, the mover's player and turn, three or so events), and
that guard was a sixth of a move's time. `fast_init` gives a frozen slots dataclass an
__init__ with the same parameters and defaults that sets the slots through their descriptors
instead: the same object, built in about 60 % of the time. Everything else the dataclass
generated (frozen __setattr__, __eq__, __hash__, __repr__, the fields) stays as it is.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

_C = TypeVar("_C", bound=type)


def _signature(cls: type, env: dict[str, Any], who: str) -> tuple[list[str], list[str]]:
    """The parameters of `cls`'s __init__ as source (defaults passed as values in `env`, never
    as source text) and its field names, in order; refuses what the generated code would get
    wrong (factories, keyword-only fields, __post_init__)."""
    params: list[str] = []
    names: list[str] = []
    for f in dataclasses.fields(cls):
        if not f.init or f.default_factory is not dataclasses.MISSING or f.kw_only:
            raise TypeError(f"{who} does not handle field {cls.__name__}.{f.name}")
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            env[f"default_{f.name}"] = f.default
            params.append(f"{f.name}=default_{f.name}")
        names.append(f.name)
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{who} does not call {cls.__name__}.__post_init__")
    return params, names


def fast_init(cls: _C) -> _C:
    """Class decorator, placed above `@dataclass(frozen=True, slots=True)`."""
    env: dict[str, Any] = {}
    params, names = _signature(cls, env, "fast_init")
    body: list[str] = []
    for name in names:
        env[f"set_{name}"] = getattr(cls, name).__set__  # the slot's member descriptor
        body.append(f"    set_{name}(self, {name})")
    # Generated once per class, from the class's own field names, as dataclasses does.
    source = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(body) or "    pass")
    exec(source, env)
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[misc]
    return cls


def twin(cls: type) -> type:
    """A mutable class of the same layout as the frozen slots dataclass `cls` (issue 22 A).

    Writing a slot of a plain slots class is one bytecode; writing one of a frozen dataclass has
    to get past its __setattr__ through the slot's descriptor, three to four times slower. The
    engine therefore builds a new frozen object as an instance of its twin and then gives it its
    real class (`obj.__class__ = cls`): CPython allows that between two classes of the same
    layout (same bases, same slots), and the result is an ordinary `cls` object, equal, hashed
    and frozen like any other. The twin has `cls`'s bases (so the same layout) with the frozen
    guard taken off (object's own __setattr__ and __delattr__), and it carries `cls`'s
    properties and methods, so code that reads a record while it is being built (storage_used,
    finished...) works on either.
    """
    namespace: dict[str, Any] = {
        "__slots__": vars(cls)["__slots__"],
        "__setattr__": object.__setattr__,
        "__delattr__": object.__delattr__,
        # `Twin()` then runs no Python __init__ (an event's base has a generated one): the
        # class call is the cheapest way to a new empty instance, cheaper than object.__new__.
        "__init__": object.__init__,
    }
    for name, value in vars(cls).items():
        if isinstance(value, property) or (
            callable(value) and not name.startswith("__") and not isinstance(value, type)
        ):
            namespace[name] = value
    made = type(f"{cls.__name__}Twin", cls.__bases__, namespace)
    # The assignment below is what the engine relies on: refuse here, at import, if this
    # Python ever stops allowing it, rather than fail in the middle of a move.
    probe: Any = object.__new__(made)
    probe.__class__ = cls
    return made


def generate(made: type, name: str, params: str, body: list[str], env: dict[str, Any]) -> Any:
    """Compile `def name(params):` over a new instance `out` of the twin class `made`.

    `body` fills `out` with plain attribute writes and ends the function; `env` gives the
    names it uses (defaults are passed as values there, never as source text). The source is
    built by the callers from the classes' own field names, as dataclasses builds __init__.
    """
    lines = [f"def {name}({params}):", "    out = Twin()", *body]
    namespace: dict[str, Any] = {"Twin": made, **env}
    exec("\n".join(lines), namespace)
    return namespace[name]


def maker(cls: _C) -> _C:
    """A constructor for the frozen slots dataclass `cls`: same parameters and defaults, the
    same object, built through its twin (see `twin`), about three times faster than even
    `fast_init`'s __init__. Typed as the class itself, so that mypy checks its calls as it
    checks the class's; used on hot paths only (rules' events, new turns and states): the
    class itself stays what everyone else calls.
    """
    env: dict[str, Any] = {"cls": cls}
    params, names = _signature(cls, env, "maker")
    body = [f"    out.{name} = {name}" for name in names]
    body += ["    out.__class__ = cls", "    return out"]
    make: _C = generate(twin(cls), "make", ", ".join(params), body, env)
    return make
