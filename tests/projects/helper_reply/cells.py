class Sheet:
    def __init__(self, rows: list):
        self.rows = rows

    @classmethod
    def open(cls, doc: str) -> "Sheet":
        with open(doc) as fh:
            return cls([line.split(",") for line in fh])

    def merge(self, first: str, last: str) -> None:
        self.rows[int(first)].extend(self.rows.pop(int(last)))
