"""The variant registry: ids, options, aliases, and the canonical variant string.

A variant is written ``id`` or ``id:key=value,key=value``. Each family lists its options with
their allowed values, the default first; options are data, not subclasses. The canonical
string names the family id, then only the options that differ from the default, sorted by key
(``klondike:draw=3,passes=3,scoring=vegas``), so equal variants print equally.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .errors import NotationError

OptionValue = int | bool | str

#: family id -> option name -> allowed values, the default first.
OPTIONS: Mapping[str, Mapping[str, tuple[OptionValue, ...]]] = MappingProxyType(
    {
        "klondike": {
            "draw": (1, 3),
            "passes": (0, 1, 3),
            "empty": ("king", "any"),
            "open": (False, True),
            "back": (True, False),
            "decks": (1, 2),
            "scoring": ("standard", "vegas", "none"),
        },
        "spider": {"suits": (4, 2, 1), "strict": (True, False), "foundations": ("runs", "cards")},
        "spiderette": {"suits": (4, 2, 1), "strict": (True, False),
                       "foundations": ("runs", "cards")},
    }
)

#: alias -> (family id, options it sets).
ALIASES: Mapping[str, tuple[str, Mapping[str, OptionValue]]] = MappingProxyType(
    {
        "klondike-3": ("klondike", {"draw": 3}),
        "easy-klondike": ("klondike", {"empty": "any"}),
        "thoughtful": ("klondike", {"open": True}),
        "vegas": ("klondike", {"draw": 3, "passes": 3, "scoring": "vegas"}),
        "double-klondike": ("klondike", {"decks": 2}),
        "spider-1": ("spider", {"suits": 1}),
        "spider-2": ("spider", {"suits": 2}),
        "spider-4": ("spider", {"suits": 4}),
        "spiderette-1": ("spiderette", {"suits": 1}),
        "spiderette-2": ("spiderette", {"suits": 2}),
    }
)

DESCRIPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "klondike": "Klondike: 7 columns, build down in alternating colours, 4 foundations",
        "spider": "Spider: two packs, 10 columns, remove King-to-Ace runs of one suit",
        "spiderette": "Spiderette: Spider's rules on Klondike's layout with one pack",
    }
)


def _format_value(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True, slots=True)
class Variant:
    """A family id with a full set of option values. Build with :func:`parse_variant`."""

    family: str
    options: Mapping[str, OptionValue] = field(compare=False, hash=False)
    _key: tuple[tuple[str, OptionValue], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        spec = OPTIONS.get(self.family)
        if spec is None:
            raise NotationError(f"unknown variant {self.family!r}; valid: {variant_ids()}")
        full = {name: values[0] for name, values in spec.items()}
        for name, value in self.options.items():
            if name not in spec:
                raise NotationError(
                    f"unknown option {name!r} for {self.family!r}; valid: {', '.join(spec)}"
                )
            if value not in spec[name] or type(value) is not type(spec[name][0]):
                allowed = "|".join(_format_value(v) for v in spec[name])
                raise NotationError(
                    f"bad value {_format_value(value)!r} for {self.family} option {name!r};"
                    f" valid: {allowed}"
                )
            full[name] = value
        object.__setattr__(self, "options", MappingProxyType(full))
        object.__setattr__(self, "_key", tuple(sorted(full.items())))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Variant):
            return NotImplemented
        return self.family == other.family and self._key == other._key

    def __hash__(self) -> int:
        return hash((self.family, self._key))

    def __getitem__(self, name: str) -> OptionValue:
        try:
            return self.options[name]
        except KeyError:
            raise NotationError(
                f"variant {self.family!r} has no option {name!r};"
                f" valid: {', '.join(self.options)}"
            ) from None

    def __str__(self) -> str:
        defaults = OPTIONS[self.family]
        changed = [
            f"{name}={_format_value(value)}"
            for name, value in self._key
            if value != defaults[name][0]
        ]
        return self.family + (":" + ",".join(changed) if changed else "")

    def __repr__(self) -> str:
        return f"Variant.parse({str(self)!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # pickled as its canonical string: the options' read-only mapping does not pickle
        return parse_variant, (str(self),)

    @classmethod
    def parse(cls, text: str) -> Variant:
        """Same as :func:`parse_variant`."""
        return parse_variant(text)


def _parse_value(family: str, name: str, text: str) -> OptionValue:
    spec = OPTIONS[family].get(name)
    if spec is None:
        raise NotationError(
            f"unknown option {name!r} for {family!r}; valid: {', '.join(OPTIONS[family])}"
        )
    for value in spec:
        if _format_value(value) == text.strip().lower():
            return value
    allowed = "|".join(_format_value(v) for v in spec)
    raise NotationError(f"bad value {text!r} for {family} option {name!r}; valid: {allowed}")


def parse_variant(text: str | Variant) -> Variant:
    """Parse ``id`` or ``id:key=value,...``; aliases resolve to their family with their options.

    Raises NotationError naming the bad part and the valid choices.
    """
    if isinstance(text, Variant):
        return text
    if not isinstance(text, str) or not text.strip():
        raise NotationError(f"not a variant: {text!r}; valid: {variant_ids()}")
    name, sep, rest = text.strip().partition(":")
    name = name.strip().lower()
    if name in ALIASES:
        family, preset = ALIASES[name]
        options: dict[str, OptionValue] = dict(preset)
    elif name in OPTIONS:
        family, options = name, {}
    else:
        raise NotationError(f"unknown variant {name!r}; valid: {variant_ids()}")
    if sep and not rest.strip():
        raise NotationError(f"bad variant {text!r}: no options after ':'; write {name} or "
                            f"{name}:key=value, e.g. {name}:{_example(family)}")
    given: set[str] = set()
    for part in rest.split(",") if sep else ():
        key, eq, value = part.partition("=")
        key = key.strip().lower()
        if not eq or not key:
            raise NotationError(
                f"bad option {part!r} in variant {text!r}; write key=value, e.g. draw=3"
            )
        if key in given:  # which one would win is a guess: say it instead
            raise NotationError(f"option {key!r} given twice in variant {text!r}; give each "
                                "option once")
        given.add(key)
        options[key] = _parse_value(family, key, value)
    return Variant(family, options)


def _example(family: str) -> str:
    """An option of the family written key=value, for error messages."""
    name, values = next(iter(OPTIONS[family].items()))
    return f"{name}={_format_value(values[-1])}"


def variant_ids() -> str:
    """All accepted ids, families then aliases, comma separated (for error messages)."""
    return ", ".join([*OPTIONS, *ALIASES])


def describe_variants() -> list[str]:
    """Human-readable lines: each family with its options (default first), then the aliases."""
    lines = []
    for family, spec in OPTIONS.items():
        lines.append(f"{family}  {DESCRIPTIONS[family]}")
        for name, values in spec.items():
            lines.append(f"    {name}={'|'.join(_format_value(v) for v in values)}")
    lines.append("aliases:")
    for alias, (family, preset) in ALIASES.items():
        lines.append(f"    {alias:16} = {Variant(family, preset)}")
    return lines
