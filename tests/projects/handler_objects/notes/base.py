from abc import ABC, abstractmethod


class ToolHandler(ABC):
    def __init__(self, name: str):
        self.name = name

    @abstractmethod
    def run_tool(self, args: dict) -> list:
        raise RuntimeError("Something went wrong")
