def split_records(text: str) -> list:
    return [line for line in text.splitlines() if line.strip()]
