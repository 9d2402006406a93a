"""Singular and plural nouns in identifiers: which listing tool lists the value an input names.

`list_people` lists persons (`person_id`), `list_indices` indexes (`index_name`), `list_analyses`
analyses (`analysis_id`), `list_aliases` aliases (`alias`). English plurals follow a few spelling
rules and a short list of irregular words; an input's noun is compared with a tool's by generating
the plurals of the input's word, and by reducing both to a singular, so a spelling one direction
misses (`aliases` -> `aliase`) the other finds.
"""
from __future__ import annotations

from typing import FrozenSet

# plurals no spelling rule makes (and the Latin and Greek ones common in APIs)
IRREGULAR = {
    "person": ("people", "persons"), "child": ("children",), "man": ("men",), "woman": ("women",),
    "datum": ("data",), "medium": ("media",), "criterion": ("criteria",), "index": ("indices", "indexes"),
    "matrix": ("matrices",), "vertex": ("vertices",), "appendix": ("appendices",), "mouse": ("mice",),
    "foot": ("feet",), "tooth": ("teeth",), "goose": ("geese",), "schema": ("schemas", "schemata"),
    "curriculum": ("curricula",), "phenomenon": ("phenomena",), "leaf": ("leaves",), "life": ("lives",),
}
_SINGULAR = {p: s for s, ps in IRREGULAR.items() for p in ps}
# singular words that end like a plural ("-s" after a vowel or another "s")
_ENDS_SINGULAR = ("ss", "us", "is", "ics")
_VOWELS = "aeiou"


def singular(word: str) -> str:
    """`issues` -> `issue`, `categories` -> `category`, `people` -> `person`, `indices` -> `index`;
    `process`, `status` and `analysis` stay."""
    if word in _SINGULAR:
        return _SINGULAR[word]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("yses"):  # analyses -> analysis
        return word[:-2] + "is"
    if word.endswith(("sses", "xes", "ches", "shes", "uses", "zzes")):
        return word[:-2]
    if word.endswith(_ENDS_SINGULAR) or not word.endswith("s"):
        return word
    return word[:-1]


def is_plural(word: str) -> bool:
    """Whether `word` reads as a plural (`issues`, `people`, `data`), not a singular (`status`)."""
    return word in _SINGULAR or word.endswith("s") and not word.endswith(_ENDS_SINGULAR)


def plurals(noun: str) -> FrozenSet[str]:
    """The plural spellings of `noun` (more than one where usage varies: `indices`, `indexes`)."""
    out = {noun + "s"} | set(IRREGULAR.get(noun, ()))
    if noun.endswith(("s", "x", "z", "ch", "sh", "o")):
        out.add(noun + "es")
    if noun.endswith("y") and len(noun) > 1 and noun[-2] not in _VOWELS:
        out.add(noun[:-1] + "ies")
    if noun.endswith("is"):
        out.add(noun[:-2] + "es")
    if noun.endswith(("ex", "ix")):
        out.add(noun[:-2] + "ices")
    if noun.endswith("fe"):
        out.add(noun[:-2] + "ves")
    elif noun.endswith("f"):
        out.add(noun[:-1] + "ves")
    return frozenset(out)


def lists_noun(plural_word: str, word: str) -> bool:
    """`plural_word` (the last word of a listing tool's name) is a plural of the noun `word` names
    (`aliases` of `alias`, `people` of `person`, `issues` of `issues`)."""
    if not is_plural(plural_word):
        return False
    return plural_word in plurals(word) or singular(plural_word) == singular(word)


# words programmers shorten in names, and what a message writes for them (`dest_path` is named by
# "destination", `src_addr` by "source address")
ABBREVIATIONS = {
    "dest": ("destination",), "dst": ("destination",), "src": ("source",), "msg": ("message",), "addr": ("address",),
    "dir": ("directory", "folder"), "out": ("output",), "num": ("number",), "cfg": ("config", "configuration"),
    "conf": ("config", "configuration"), "db": ("database",), "repo": ("repository",), "img": ("image",),
    "doc": ("document",), "env": ("environment",), "pwd": ("password",), "passwd": ("password",),
    "usr": ("user",), "idx": ("index",), "len": ("length",), "max": ("maximum",), "min": ("minimum",),
    "tmp": ("temporary",), "temp": ("temperature", "temporary"), "desc": ("description",), "qty": ("quantity",),
    "amt": ("amount",), "ts": ("timestamp",), "tz": ("timezone", "time zone"), "lang": ("language",), "org": ("organization",),
    "pkg": ("package",), "proj": ("project",), "ver": ("version",), "attr": ("attribute",), "col": ("column",),
    "tbl": ("table",), "req": ("request",), "resp": ("response",), "auth": ("authentication", "authorization"),
}


def spelled_out(word: str) -> tuple:
    """The words a message writes for the abbreviation `word` (`dest` -> destination), or ()."""
    return ABBREVIATIONS.get(word, ())
