import asyncio
import urllib.request


async def get_text(url: str) -> str:
    loop = asyncio.get_running_loop()
    return await asyncio.wait_for(loop.run_in_executor(None, _read, url), timeout=10)


def _read(url: str) -> str:
    with urllib.request.urlopen(url) as response:
        return response.read().decode()
