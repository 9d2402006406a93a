import ops

HANDLERS = {
    "read_file": ops.read_file,
    "delete_file": ops.delete_file,
}
