from .store import load

__all__ = ["load"]
