import os


async def read_file(arguments: dict) -> str:
    path = arguments.get("path")
    if not path:
        raise ValueError("path missing")
    with open(path) as fh:
        return fh.read()


async def delete_file(arguments: dict) -> str:
    if arguments.get("confirm") is not True:
        raise PermissionError("not confirmed")
    os.remove(arguments["path"])
    return "deleted"
