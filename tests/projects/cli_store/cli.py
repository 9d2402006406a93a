import click

import store


@click.command()
@click.argument("path")
def main(path: str) -> None:
    """Print the records in PATH."""
    for record in store.load(path):
        click.echo(record)
