import os


class Vault:
    def __init__(self, root: str):
        self.root = root

    def read(self, path: str) -> str:
        full = os.path.join(self.root, path)
        if not os.path.isfile(full):
            raise FileNotFoundError(f"note {path} does not exist")
        with open(full) as fh:
            return fh.read()
