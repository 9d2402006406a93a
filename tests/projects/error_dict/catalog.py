import json
import os


def load_catalog() -> dict:
    with open(os.environ.get("CATALOG_PATH", "catalog.json")) as fh:
        return json.load(fh)
