"""Serve one chapter in present mode: Voila, with the chapter's address given once its
preheated kernel has run every cell, so a page opened at that address is live at once.

    python tools/present.py 02_denominators.ipynb --template=present --preheat_kernel=True ...

(`make present CHAPTER=02` runs it from notebooks/ with the Makefile's PRESENT_OPTIONS; every
argument is Voila's.) Two things differ from `python -m voila`:

1. The pool's kernel is started before the server listens. Voila hands a request the
   preheated kernel only once that kernel has started; a request that came sooner got a
   second kernel, which ran the chapter beside the first on the same cores. The server's
   port is held meanwhile (:func:`port_held`), so the kernel cannot take it.
2. "Voilà is running at" is not printed when the server starts: the chapter's address is
   printed (and the browser opened, unless --no-browser) when the preheated kernel has run
   the whole chapter. A page opened before that still works: it shows the stored results at
   once and the live page when the kernel is done.

Without a preheated kernel (--preheat_kernel=False) this is plain Voila.
"""
import asyncio
import contextlib
import logging
import socket
import sys
import time

from voila.app import Voila


@contextlib.contextmanager
def port_held(port, *, host="127.0.0.1"):
    """Hold ``port`` on ``host`` (bound, not listening) for the block; yields whether it is
    held. A kernel binds its sockets to ports the system hands out, where the server's port
    may be: one started before the server listened took it once in a CI run, and the page's
    address answered with the kernel's handshake. Kernels bind on 127.0.0.1. Nothing is
    held for port 0 or a port already taken (the server then reports it as ever)."""
    holder = None
    if port:
        holder = socket.socket()
        try:
            holder.bind((host, port))
        except OSError:
            holder.close()
            holder = None
    try:
        yield holder is not None
    finally:
        if holder is not None:
            holder.close()


class _NotYet(logging.Filter):
    """Hold back Voila's "running at" line: the address is given when the chapter is live."""

    def filter(self, record):
        return not str(record.msg).startswith("Voilà is running at")


class Present(Voila):
    """Voila whose address is printed when its preheated kernel has run the chapter."""

    def listen(self):
        pool = getattr(self.kernel_manager, "_pools", {}).get(
            getattr(self.kernel_manager, "notebook_path", None), [])
        if not pool:
            return super().listen()
        begun = time.monotonic()
        with port_held(self.port):
            asyncio.get_event_loop().run_until_complete(asyncio.wait(list(pool)))
        self.log.info("The chapter is running in a preheated kernel; its address follows "
                      "when every cell has run.")
        asyncio.get_event_loop().create_task(self._announce(pool[0], begun, self.open_browser))
        self.open_browser = False
        hold = _NotYet()
        self.log.addFilter(hold)
        try:
            return super().listen()
        finally:
            self.log.removeFilter(hold)

    async def _announce(self, started, begun, open_browser):
        """Print the address when the preheated kernel has run every cell (or a page has
        taken it first)."""
        try:
            content = await started
            await asyncio.wait([content["task"]])
            failed = content["task"].exception()
        except Exception as error:   # noqa: BLE001 (the address is printed whatever happened)
            failed = error
        if failed is not None:
            self.log.warning("The preheated kernel did not run the chapter (%s): a page "
                             "runs it in a kernel of its own. Voilà is running at:\n%s",
                             failed, self.display_url)
            return
        ran = time.monotonic() - begun
        if content["renderer"].stop_generator:   # a page took the kernel before it was done
            self.log.info("A page took the chapter's kernel before it had run every cell. "
                          "Voilà is running at:\n%s", self.display_url)
            return
        self.log.info("The chapter is live (it ran in %.1f s). Voilà is running at:\n%s",
                      ran, self.display_url)
        if open_browser:
            self.launch_browser()


def main(argv):
    """Serve the chapter ``argv`` names; a chapter that is not there is one line and exit 2
    (``make present CHAPTER=99`` gave Voilà's traceback), not a traceback."""
    try:
        return Present.launch_instance(argv)
    except ValueError as error:
        print(f"present: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
