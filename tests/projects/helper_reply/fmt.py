from cells import Sheet


def merge(doc: str, first: str, last: str) -> str:
    sheet = Sheet.open(doc)
    try:
        sheet.merge(first, last)
    except IndexError:
        return "Failed to merge cells. Check that indices are valid."
    return f"Merged {first}:{last} in {doc}."
