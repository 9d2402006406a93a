from catalog import load_catalog


def find_table(name: str) -> dict:
    table = load_catalog().get(name)
    if table is None:
        return {"success": False, "error": f"table {name} not found"}
    return {"success": True, "columns": table}
