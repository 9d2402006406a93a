"""CST -> `Message`s: the only package that knows libcst node shapes."""
from .file_facts import FileFacts
from .walker import extract

__all__ = ["FileFacts", "extract"]
