"""Names and labels: name indices to canonical tool names, and to labels
dressed in each label style that sanitise back to those names (the argument
is in the package's docstring; :func:`_check_vocabulary` checks its claims at
import)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Tuple

# No word contains a digit or an underscore, no verb is a role, and no
# verb+noun concatenation is a verb, a role or another concatenation: that is
# what makes names spell their index back (checked by _check_vocabulary).
VERBS = (
    "get", "fetch", "search", "create", "update", "delete", "list", "send",
    "parse", "summarize", "translate", "classify", "extract", "validate", "render", "schedule",
    "lookup", "convert", "compute", "notify", "upload", "download", "query", "rank",
)  # fmt: skip
NOUNS = (
    "user", "page", "weather", "invoice", "order", "ticket", "email", "calendar",
    "document", "image", "product", "price", "stock", "map", "route", "news",
    "contact", "report", "file", "record", "message", "event", "review", "comment",
    "payment", "account", "task", "note", "recipe", "flight", "hotel", "book",
    "song", "video", "repo", "issue", "lead", "quote", "policy", "asset",
)  # fmt: skip
# Unicode style only: words whose last letter is non-ASCII. Sanitising drops
# it ("Café" -> "caf"), which is safe only at the end of a word, where a
# separator follows anyway.
ACCENT_NOUNS = (
    ("caf", "café"), ("ros", "rosé"), ("souffl", "soufflé"), ("fianc", "fiancé"),
    ("clich", "cliché"), ("canap", "canapé"), ("blas", "blasé"), ("frapp", "frappé"),
    ("saut", "sauté"), ("attach", "attaché"),
)  # fmt: skip
ROLES = (
    "planner", "researcher", "writer", "reviewer", "router", "analyst", "support",
    "concierge", "coder", "critic", "tutor", "scout", "curator", "auditor", "triage",
)  # fmt: skip
# Labels with no ASCII letter or digit at all: each is named `unnamed_tool`.
# The Kelvin sign and Angstrom sign lower-case to ASCII under str.lower().
FOREIGN_LABELS = ("検索", "日本語", "Поиск", "بحث", "🔍🔎", "Ωμέγα", "ウェブ検索", "\u212a\u212b")
UNNAMED_TOOL = "unnamed_tool"

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _sanitise(label: str) -> str:
    """docs/SEMANTICS.md section 5, for the vocabulary self-check (and the tests):
    expected names are built, never computed from labels."""
    out: List[str] = []
    gap = False
    for ch in label.translate(_ASCII_LOWER):
        if "a" <= ch <= "z" or "0" <= ch <= "9":
            if gap and out:
                out.append("_")
            gap = False
            out.append(ch)
        else:
            gap = True
    return "".join(out) or UNNAMED_TOOL


def _check_vocabulary() -> None:
    """The claims the module docstring's argument rests on (cheap: at import)."""
    residues = [r for r, _ in ACCENT_NOUNS]
    for word in (*VERBS, *NOUNS, *ROLES, *residues, "agent"):
        if not (word.isascii() and word.isalpha() and word.islower()):
            raise AssertionError(f"vocabulary word {word!r} must be lowercase ASCII letters")
    for residue, accented in ACCENT_NOUNS:
        if not accented[:-1].isascii() or accented[-1].isascii() or _sanitise(accented) != residue:
            raise AssertionError(f"{accented!r}: only its last letter may be non-ASCII, and it must sanitise to {residue!r}")
    nouns = [*NOUNS, *residues]
    if len(set(nouns)) != len(nouns) or len(set(VERBS)) != len(VERBS) or len(set(ROLES)) != len(ROLES):
        raise AssertionError("verbs, nouns and roles must be distinct")
    glued = [v + n for v in VERBS for n in nouns]
    if len(set(glued)) != len(glued):
        raise AssertionError("verb+noun concatenations must be distinct")
    # The first word of a name tells its family apart: a verb (tool), a
    # glued verb+noun (camel-case tool), a role (agent), `unnamed`, or `tool`
    # (the clashing pairs of the clash box and the chain, `tool_<p>`).
    families = [set(VERBS), set(glued), set(ROLES), {"unnamed"}, {"tool"}]
    if sum(map(len, families)) != len(set().union(*families)):
        raise AssertionError("verbs, verb+noun concatenations and roles must not overlap")


_check_vocabulary()


@dataclass(frozen=True)
class _Variant:
    """How one label is dressed: ASCII case and separators, decorations that
    merge into separators, accent, and how the JSON string escapes it."""

    case: int  # 0 lower, 1 Title, 2 UPPER, 3 first word Title
    sep: str  # between words; never empty, never alphanumeric
    num_sep: str  # between the last word and the number; same
    prefix: str  # before everything; never alphanumeric
    suffix: str  # after everything; never alphanumeric
    accent: bool  # accent nouns as "café" rather than "caf"
    ascii: bool  # escape non-ASCII as \\uXXXX in JSON

    def esc(self, text: str) -> str:
        return json.dumps(text, ensure_ascii=self.ascii)[1:-1]

    def word(self, word: str, first: bool) -> str:
        if self.case == 1 or (self.case == 3 and first):
            return word[:1].upper() + word[1:]
        if self.case == 2:
            return word.upper()
        return word


_MIXED = {
    "sep": (" ", " ", " ", "-", ".", " - ", "/", ": ", "_", " & ", "\t", " \\ ", " | ", "__", "  ", ", "),
    "num_sep": (" ", " ", " #", " (", "-", "_", " / ", ", ", " \"", "\\"),
    "prefix": ("", "", "", "", '"', "* ", "[", "> ", "'", "@", "\\"),
    "suffix": ("", "", "", "", "!", ")", '"', "?", " ]", "...", " *", "\n"),
}
_UNICODE = {
    # Kelvin sign, dotted capital I, long s, the fi ligature, Arabic-Indic and
    # fullwidth digits, combining marks, zero-width and no-break spaces: all
    # outside ASCII, all dropped by the sanitiser, and all changed by a
    # careless str.lower()/casefold()/NFKC/isalnum() implementation.
    "sep": (" ", " · ", " → ", "、", " — ", "：", "\u00a0", " \u212a ", "\u200b", " ١٢ ", "／", " ß ", "\u3000", " ＿ "),
    "num_sep": (" ", " №", " ＃", "\u00a0", " · ", "-", " \u0130 ", " ３"),
    "prefix": ("", "", "", "🔍 ", "\u0130", "« ", "\u017f ", "ﬁ ", "\u212a"),
    "suffix": ("", "", "", " ✓", " »", "™", " \u212a", "\u0301", " ２", "…"),
}
_VARIANTS_PER_STYLE = 48


def _variants(style: str, rng: random.Random) -> List[_Variant]:
    if style == "snake":
        return [_Variant(0, "_", "_", "", "", False, False)]
    pools = _MIXED if style == "mixed" else _UNICODE
    unicode = style == "unicode"
    return [
        _Variant(
            case=rng.randrange(4),
            sep=rng.choice(pools["sep"]),
            num_sep=rng.choice(pools["num_sep"]),
            prefix=rng.choice(pools["prefix"]),
            suffix=rng.choice(pools["suffix"]),
            # Half with, half without, so the accent-driven twins below
            # always find one of each.
            accent=unicode and k % 2 == 0,
            ascii=unicode and rng.random() < 0.5,
        )
        for k in range(_VARIANTS_PER_STYLE)
    ]


class Namer:
    """Name indices to canonical names and to JSON-escaped labels.

    A label is ``head + str(k) + tail``: the head (opening quote, prefix, the
    two words, number separator, escaped) depends on the word pair, the shape
    and the variant; the tail (suffix, closing quote) on the variant. A
    regular tool's shape and variant are functions of its index modulo
    ``period`` (eight times the number of word pairs), so its label is one
    cached head, ``k`` and one cached tail: built once per slot, on first
    use, a label then costs a list lookup and an f-string. Twins and other
    extras choose their own variant through :meth:`tool_label`.
    """

    def __init__(self, style: str, rng: random.Random) -> None:
        self.style = style
        # (residue, surface with accent) per noun; ASCII nouns are their own residue.
        self.nouns: List[Tuple[str, str]] = [(n, n) for n in NOUNS]
        if style == "unicode":
            self.nouns += list(ACCENT_NOUNS)
        self.width = len(VERBS) * len(self.nouns)
        self.period = period = self.width * 8
        self.variants = _variants(style, rng)
        nv = len(self.variants)
        self.accented = [k for k, v in enumerate(self.variants) if v.accent]
        self.plain = [k for k, v in enumerate(self.variants) if not v.accent]
        self._vtable = rng.choices(range(nv), k=period)
        # One label in eight is camel case (``GetUser``). The shape is a
        # function of the index, so that every label of an index has one name.
        self._camel = bytes(rng.random() < 0.125 and style != "snake" for _ in range(period))
        self._tails = [v.esc(v.suffix) + '"' for v in self.variants]
        self._nums = [v.esc(v.num_sep) for v in self.variants]
        self._heads: Dict[Tuple[int, int, int], str] = {}
        self._slot_k: List[Optional[str]] = [None] * period  # head ending with the number separator
        self._slot_0: List[Optional[str]] = [None] * period  # head for k == 0
        self._slot_tail: List[Optional[str]] = [None] * period

    def var(self, i: int) -> int:
        """The variant that dresses the regular tool of name index ``i``."""
        return self._vtable[i % self.period]

    def accent_noun(self, i: int) -> bool:
        return (i % self.width) // len(VERBS) >= len(NOUNS)

    def tool_name(self, i: int) -> str:
        k, pair = divmod(i, self.width)
        verb = VERBS[pair % len(VERBS)]
        noun = self.nouns[pair // len(VERBS)][0]
        name = verb + noun if self._camel[i % self.period] else f"{verb}_{noun}"
        return f"{name}_{k}" if k else name

    def _head(self, pair: int, camel: int, var: int) -> str:
        key = (pair, camel, var)
        head = self._heads.get(key)
        if head is None:
            v = self.variants[var]
            residue, accented = self.nouns[pair // len(VERBS)]
            verb = v.word(VERBS[pair % len(VERBS)], True)
            noun = v.word(accented if v.accent else residue, False)
            head = self._heads[key] = '"' + v.esc(v.prefix + verb + ("" if camel else v.sep) + noun)
        return head

    def tool_label(self, i: int, var: int) -> str:
        """The label (a JSON string) of name index ``i`` dressed by ``var``."""
        k, pair = divmod(i, self.width)
        head = self._head(pair, self._camel[i % self.period], var)
        return f"{head}{self._nums[var]}{k}{self._tails[var]}" if k else f"{head}{self._tails[var]}"

    def _fill(self, j: int) -> None:
        var = self._vtable[j]
        head = self._head(j % self.width, self._camel[j], var)
        self._slot_0[j] = head
        self._slot_tail[j] = self._tails[var]
        self._slot_k[j] = head + self._nums[var]

    def tool_labels(self, indices: Iterable[int]) -> List[str]:
        """The labels of regular tools with name ``indices``."""
        width, period = self.width, self.period
        heads, heads_0, tails, fill = self._slot_k, self._slot_0, self._slot_tail, self._fill
        labels: List[str] = []
        append = labels.append
        for i in indices:
            j = i % period
            if heads[j] is None:
                fill(j)
            if i >= width:
                append(f"{heads[j]}{i // width}{tails[j]}")
            else:
                append(f"{heads_0[j]}{tails[j]}")
        return labels

    @staticmethod
    def agent_name(a: int) -> str:
        k, r = divmod(a, len(ROLES))
        return f"{ROLES[r]}_agent_{k}" if k else f"{ROLES[r]}_agent"

    def agent_label(self, a: int) -> str:
        k, r = divmod(a, len(ROLES))
        var = self._vtable[a % self.period]
        key = (-1, r, var)  # pair -1: agents
        head = self._heads.get(key)
        if head is None:
            v = self.variants[var]
            head = self._heads[key] = '"' + v.esc(v.prefix + v.word(ROLES[r], True) + v.sep + v.word("agent", False))
        return f"{head}{self._nums[var]}{k}{self._tails[var]}" if k else f"{head}{self._tails[var]}"

