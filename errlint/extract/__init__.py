"""CST -> `Message`s: the only package that knows libcst node shapes."""
from .walker import FileFacts, extract

__all__ = ["FileFacts", "extract"]
