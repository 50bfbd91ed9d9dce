"""A game's parameters as data: one typed schema from which every command's options, the layout
spec ``game:key=value,…``, their help and their checking are derived (in the spirit of
OpenSpiel's ``parameter_specification``).

A :class:`Param` says what one parameter is (its kind, default, range, help) and where it is
shown (``board``, ``rules``, ``play``; ``spec`` when it is part of a layout spec). Text from a
command line or a spec is read by :meth:`Param.parse` into a typed value (a length becomes a
:class:`~coinprint.units.Length` in mm that keeps its text), and a game's hooks receive the
values as :class:`Values`, which remembers which ones were read: a value that was given but
never read is refused (:meth:`Values.check_read`), so no parameter is ever silently ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from coinprint import caps
from coinprint.errors import CoinprintError, UnreadableInputError, UsageError
from coinprint.units import Length, coin, paper_size, parse_length

ParamKind = Literal["int", "seed", "text", "choice", "flag", "length", "coin", "paper"]
"""How a parameter's text is read: ``int`` (a whole number in ``low``–``high``), ``seed`` (a
whole number within the seed cap), ``text``, ``choice`` (one of ``choices``), ``flag``
(on/off), ``length`` (a length with a unit, mm when none is given), ``coin`` (a catalogue
coin's name, or ``none`` where :attr:`Param.none` allows it) or ``paper`` (a paper name or WxH)."""

Command = Literal["board", "rules", "play", "spec"]
"""Where a parameter is shown: the options of ``board GAME``, ``rules GAME`` (what the rule
sheet describes), ``play GAME``, and the keys of the layout spec ``game:key=value``."""

Role = Literal["layout", "rules"]
"""What a parameter sets: the layout (its value goes to the game's ``build``) or the rules (it
goes to the rules engine's options, a record's ``options``)."""

_UNSET: Any = object()


def fresh_seed() -> int:
    """A seed drawn afresh (up to six digits, easy to type back), for a run given no seed."""
    import secrets

    return secrets.randbelow(1_000_000)


@dataclass(frozen=True)
class Param:
    """One parameter of a game."""

    name: str
    """Its key in a layout spec and in :class:`Values` (``hex``, ``max_neighbours``)."""
    kind: ParamKind
    help: str
    default: Any = None
    """The value when a command is not given it (None: not set)."""
    commands: frozenset[str] = frozenset({"board", "spec"})
    """Where it is shown (see :data:`Command`)."""
    role: Role = "layout"
    low: int | None = None
    high: int | None = None
    """The range of an ``int``, inclusive (checked, and shown in help and forms)."""
    choices: tuple[str, ...] = ()
    none: bool = False
    """A ``coin`` that may be ``none`` (read as None)."""
    spec_default: Any = _UNSET
    """The value when a layout spec leaves it out, where that differs from :attr:`default`
    (a spec written before the parameter existed means the old behaviour)."""
    named: bool = False
    """Always written in the spec that names a layout, even at its default (``size=5``)."""
    flags: Mapping[str, str] = field(default_factory=dict)
    """The option's flag in a command where the usual ``--name`` means something else
    (``{"play": "--map-seed"}``: in ``play``, ``--seed`` is the first game's seed)."""
    metavar: str = ""
    check: Callable[[Any, str], Any] | None = field(default=None, compare=False)
    """A further check of the typed value (``check(value, where)``), e.g. a cap from :mod:`coinprint.caps`."""

    def __post_init__(self) -> None:
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"parameter {self.name}: a choice needs choices")
        if self.kind == "flag" and self.default is None:
            object.__setattr__(self, "default", False)

    def shown_in(self, command: str) -> bool:
        return command in self.commands

    def flag(self, command: str) -> str:
        """The option as typed in ``command`` (``--max-neighbours``)."""
        return self.flags.get(command, "--" + self.name.replace("_", "-"))

    @property
    def absent(self) -> Any:
        """The value a layout spec without this parameter means."""
        return self.default if self.spec_default is _UNSET else self.spec_default

    def parse(self, value: Any, where: str) -> Any:
        """The typed value of ``value`` (text as typed, or a value already of the kind);
        :class:`UsageError` naming ``where`` (the option or spec key) and what is allowed."""
        if value is None:
            return None
        typed = self._typed(value, where)
        if self.check is not None and typed is not None:
            typed = self.check(typed, where)
        return typed

    def _typed(self, value: Any, where: str) -> Any:
        text = value.strip() if isinstance(value, str) else value
        if self.kind in ("int", "seed"):
            number = _whole(text, where)
            if self.kind == "seed":
                return caps.check_seed(number, where)
            if self.check is not None:  # a cap's own check says the range, naming the cap
                return number
            if (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
                raise UsageError(f"{where} {number} is out of range; use {self.range_text()}")
            return number
        if self.kind == "flag":
            return _flag(text, where)
        if not isinstance(text, (str, Length)):
            raise UsageError(f"{where} must be text, not {type(value).__name__}")
        if self.kind == "choice":
            if text not in self.choices:
                raise UsageError(f"{where} {text!r} is not one of: {', '.join(self.choices)}")
            return text
        if self.kind == "length":
            return text if isinstance(text, Length) else _length(str(text), where)
        if self.kind == "coin":
            if self.none and str(text).lower() in ("none", ""):
                return None
            try:
                coin(str(text))
            except CoinprintError as exc:
                raise UsageError(f"{where}: {exc}") from None
            return text
        if self.kind == "paper":
            try:
                paper_size(str(text))
            except CoinprintError as exc:
                raise UsageError(f"{where}: {exc}") from None
        return text

    def text(self, value: Any) -> str:
        """``value`` as a layout spec writes it (a length as it was typed, a flag as true/false)."""
        if isinstance(value, Length):
            return value.text
        if isinstance(value, bool):
            return "true" if value else "false"
        if value is None:
            return "none" if self.kind == "coin" else ""
        return str(value)

    def range_text(self) -> str:
        """The allowed values in words (``2 to 13``), for messages, help and forms."""
        if self.kind == "choice":
            return ", ".join(self.choices)
        if self.low is not None and self.high is not None:
            return f"{self.low:,} to {self.high:,}"
        if self.low is not None:
            return f"{self.low:,} or more"
        if self.high is not None:
            return f"at most {self.high:,}"
        return ""

    def describe(self) -> str:
        """The help text with the range, as ``--help`` and forms show it."""
        shown = self.range_text() if self.kind == "int" else ""
        return f"{self.help} ({shown})" if shown and shown not in self.help else self.help


def _whole(value: Any, where: str) -> int:
    if isinstance(value, bool):
        raise UsageError(f"{where} must be a whole number, not {value!r}")
    if isinstance(value, int):
        return value
    text = str(value)
    if len(text) > caps.MAX_JSON_INT_DIGITS + 1:
        raise UsageError(f"{where} must be a whole number of at most {caps.MAX_JSON_INT_DIGITS} digits")
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"{where} must be a whole number, not {text!r}") from None


def _flag(value: Any, where: str) -> bool:
    if isinstance(value, bool):
        return value
    words = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
    if str(value).lower() not in words:
        raise UsageError(f"{where} must be true or false, not {value!r}")
    return words[str(value).lower()]


def _length(text: str, where: str) -> Length:
    try:
        return Length(parse_length(text, default_unit="mm"), text)
    except CoinprintError as exc:
        raise UsageError(f"{where}: {exc}") from None


class Values(Mapping[str, Any]):
    """A game's parameter values, typed, every parameter present (its default when not given).

    It remembers which were ``given`` (typed on the command line or written in a spec) and
    which a hook has read; :meth:`check_read` refuses a given value nobody read."""

    def __init__(self, values: Mapping[str, Any], given: Iterable[str] = (), *, where: Mapping[str, str] | None = None):
        self._values = dict(values)
        self.given = frozenset(given)
        self._read: set[str] = set()
        self._where = dict(where or {})

    def __getitem__(self, key: str) -> Any:
        self._read.add(key)
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Values({self._values!r}, given={sorted(self.given)})"

    def peek(self, key: str) -> Any:
        """A value, without counting it as read (for shared code that only passes values on)."""
        return self._values[key]

    def where(self, key: str) -> str:
        """How ``key`` was given, for a message (its option, ``--max-neighbours``, or spec key)."""
        return self._where.get(key, key)

    def unread(self) -> list[str]:
        """The given values no hook has read."""
        return sorted(self.given - self._read)

    def check_read(self, what: str) -> None:
        """Refuse a given value that no hook read: ``what`` (``board strip``) does not use it."""
        unread = self.unread()
        if unread:
            names = ", ".join(self.where(key) for key in unread)
            raise UsageError(f"{what} does not use {names}; leave {'it' if len(unread) == 1 else 'them'} out")

    def subset(self, names: Iterable[str]) -> Values:
        """A copy in which only ``names`` count as given (the others are passed on, not used)."""
        return Values(self._values, self.given & set(names), where=self._where)

    def plain(self) -> Values:
        """A copy with nothing given and nothing read (to pass the same values to another hook)."""
        return Values(self._values, where=self._where)

    def defaulted(self, **changes: Any) -> Values:
        """A copy with ``changes`` as new defaults (not counted as given)."""
        return Values({**self._values, **changes}, self.given, where=self._where)

    def replace(self, **changes: Any) -> Values:
        """A copy with ``changes`` (counted as given)."""
        return Values({**self._values, **changes}, self.given | set(changes), where=self._where)


@dataclass(frozen=True)
class Schema:
    """A game's parameters, in the order forms and ``--help`` show them."""

    game: str
    params: tuple[Param, ...]

    def __iter__(self) -> Iterator[Param]:
        return iter(self.params)

    def __getitem__(self, name: str) -> Param:
        for param in self.params:
            if param.name == name:
                return param
        raise KeyError(name)

    def shown_in(self, command: str) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.shown_in(command))

    def defaults(self) -> Values:
        """Every parameter at its command default."""
        return Values({p.name: p.default for p in self.params})

    def from_options(self, command: str, options: Mapping[str, Any], given: Iterable[str]) -> Values:
        """The values of ``command``'s options (typed already, by name), the others at their defaults."""
        shown = {p.name for p in self.shown_in(command)}
        values = {p.name: options[p.name] if p.name in shown else p.default for p in self.params}
        where = {p.name: p.flag(command) for p in self.params}
        return Values(values, set(given) & shown, where=where)

    def from_spec(self, params: Mapping[str, str]) -> Values:
        """The values a layout spec's ``key=value`` parameters (text) name; keys may be spelt
        with ``-`` or ``_``. Unknown keys are refused, naming the known ones."""
        known = {p.name: p for p in self.params if p.shown_in("spec")}
        typed: dict[str, Any] = {p.name: p.absent for p in self.params}
        given = []
        for key, text in params.items():
            name = key.replace("-", "_")
            if name not in known:
                raise UsageError(
                    f"unknown {self.game} layout parameter {key!r}; use {', '.join(sorted(known)) or 'none'}"
                )
            typed[name] = known[name].parse(text, f"{self.game} {key}")
            given.append(name)
        return Values(typed, given, where={name: f"{self.game} layout parameter {name}" for name in known})

    def spec(self, values: Mapping[str, Any]) -> str:
        """The layout spec ``game:key=value,…`` of ``values``: each spec parameter that is
        :attr:`~Param.named` or differs from what its absence means."""
        parts = []
        for param in self.params:
            if not param.shown_in("spec"):
                continue
            value = values[param.name] if not isinstance(values, Values) else values.peek(param.name)
            if value is None and not param.named:
                continue
            if param.named or value != param.absent:
                parts.append(f"{param.name}={param.text(value)}")
        return ":".join([self.game, ",".join(parts)]) if parts else self.game

    def with_fresh_seeds(self, command: str, values: Values, generated: bool) -> Values:
        """``values`` with a fresh seed for each seed parameter of ``command`` that was not
        given, when they ask for a ``generated`` layout (a fixed layout takes no seed). A
        fresh seed does not count as given: a layout that needs none leaves it unread."""
        if not generated:
            return values
        fresh = {
            p.name: fresh_seed() for p in self.shown_in(command) if p.kind == "seed" and p.name not in values.given
        }
        return values.defaulted(**fresh) if fresh else values

    def layout_values(self, values: Values) -> Values:
        """``values`` as the layout sees them: the rules' options are not given to it."""
        return values.subset(p.name for p in self.params if p.role == "layout")

    def rules_options(self, values: Values) -> dict[str, Any]:
        """The rules engine's options (a record's ``options``) among ``values``."""
        return {p.name: values[p.name] for p in self.params if p.role == "rules"}


def parse_layout_name(spec: str) -> tuple[str, dict[str, str]]:
    """Read a layout spec (what :meth:`Schema.spec` writes) as its game and its parameters'
    texts: ``"cointable:size=5,hex=1in"`` → (``"cointable"``, params)."""
    name, _, rest = spec.partition(":")
    params: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq:
            raise UnreadableInputError(f"layout '{spec}': parameter '{part}' must be written key=value")
        params[key.strip()] = value.strip()
    return name.strip(), params
