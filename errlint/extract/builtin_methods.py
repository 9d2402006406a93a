"""Method names every builtin container, string, number and file has.

A call of one of them on a receiver of unknown type (`parts.append(x)`, `result.get(k)`) is more
likely a call on a dict, a str or a file than on a project object: the project model never dispatches
it over the class hierarchy (`errlint.class_hierarchy`), and the per-file pass does not record its
arguments (`extract.call_arguments`). Dunders are left alone the same way.
"""
from __future__ import annotations

BUILTIN_METHODS = frozenset({
    "add", "append", "as_integer_ratio", "bit_count", "bit_length", "capitalize", "casefold", "center", "clear",
    "close", "conjugate", "copy", "count", "decode", "detach", "difference", "difference_update", "discard",
    "encode", "endswith", "expandtabs", "extend", "fileno", "find", "flush", "format", "format_map",
    "from_bytes", "fromhex", "fromkeys", "get", "getbuffer", "getvalue", "hex", "index", "insert",
    "intersection", "intersection_update", "is_integer", "isalnum", "isalpha", "isascii", "isatty",
    "isdecimal", "isdigit", "isdisjoint", "isidentifier", "islower", "isnumeric", "isprintable", "isspace",
    "issubset", "issuperset", "istitle", "isupper", "items", "join", "keys", "ljust", "lower", "lstrip",
    "maketrans", "partition", "peek", "pop", "popitem", "read", "read1", "readable", "readinto", "readinto1",
    "readline", "readlines", "reconfigure", "remove", "removeprefix", "removesuffix", "replace", "reverse",
    "rfind", "rindex", "rjust", "rpartition", "rsplit", "rstrip", "seek", "seekable", "setdefault", "sort",
    "split", "splitlines", "startswith", "strip", "swapcase", "symmetric_difference",
    "symmetric_difference_update", "tell", "title", "to_bytes", "translate", "truncate", "union", "update",
    "upper", "values", "writable", "write", "writelines", "zfill",
})


def dispatchable(method: str) -> bool:
    return bool(method) and method not in BUILTIN_METHODS and not (method.startswith("__") and method.endswith("__"))
