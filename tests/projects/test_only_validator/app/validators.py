def check_label(label: str) -> str:
    if label.startswith("~"):
        raise ValueError("bad label")
    return label
