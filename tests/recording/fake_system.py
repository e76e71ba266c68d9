"""A small RAG system on localhost for the recorder's tests: a real HTTP server (the
standard library's, on an ephemeral port, in a thread) that answers from a dataset's labels
and can be told to fail: per case, a list of faults used up one call at a time.

Faults: ``"500"``, ``"429"`` (with ``Retry-After: 0``), ``"slow"`` (answers after
``slow_s``), ``"bad-json"``, ``"no-retrieved"``, ``"drop"`` (closes the connection without
answering). ``die_after=N``: after N answers the server stops listening and drops every
connection (the process behind an endpoint died).
"""
import hashlib
import json
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def ranking(case, labels, corpus_ids, depth=4):
    """A fixed ranking for ``case``: its first relevant ID, then IDs in a hashed order."""
    relevant = labels["relevant"]
    relevant = [doc for doc, grade in relevant.items() if grade > 0] if type(relevant) is dict \
        else list(relevant)
    order = sorted(corpus_ids, key=lambda doc: hashlib.sha256(f"{case}/{doc}".encode())
                   .hexdigest())
    head = relevant[:1]
    return head + [doc for doc in order if doc not in head][: depth - len(head)]


class FakeSystem:
    def __init__(self, dataset, *, faults=None, die_after=None, slow_s=0.5):
        self.answers = {case: ranking(case, labels, list(dataset.corpus))
                        for case, labels in dataset.cases.items()}
        self.faults = {case: list(found) for case, found in (faults or {}).items()}
        self.die_after, self.slow_s = die_after, slow_s
        self.calls, self.answered, self.dead, self.closed = Counter(), 0, False, False
        self.lock = threading.Lock()
        system = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                system.respond(self, body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.handle_error = lambda request, address: None  # a client that hung up
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/ask"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def stop(self):
        if not self.closed:
            self.closed = self.dead = True
            self.server.shutdown()
            self.server.server_close()

    def _send(self, handler, status, data, headers=()):
        handler.send_response(status)
        for name, value in headers:
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    def respond(self, handler, body):
        case = body["case"]
        with self.lock:
            if self.dead:
                handler.close_connection = True
                return
            self.calls[case] += 1
            fault = self.faults.get(case, []).pop(0) if self.faults.get(case) else "ok"
            if fault in ("ok", "slow", "no-retrieved") and self.die_after is not None:
                if self.answered >= self.die_after:  # answers counted before they are sent
                    self.dead = handler.close_connection = True
                    return
                self.answered += 1
        if fault == "drop":
            handler.close_connection = True
            return
        if fault == "500":
            return self._send(handler, 500, b"boom")
        if fault == "429":
            return self._send(handler, 429, b"slow down", [("Retry-After", "0")])
        if fault == "bad-json":
            return self._send(handler, 200, b'{"answer": "half')
        if fault == "slow":
            time.sleep(self.slow_s)
        retrieved = self.answers[case]
        answer = {"answer": f"The answer to {case}.", "retrieved": retrieved,
                  "delivered": retrieved[:2], "tokens": 40 + len(case), "cost": 0.001}
        if fault == "no-retrieved":
            del answer["retrieved"]
        self._send(handler, 200, json.dumps(answer).encode())
        with self.lock:
            die = self.die_after is not None and self.answered >= self.die_after
        if die:
            with self.lock:
                self.dead = True
            threading.Thread(target=self.stop, daemon=True).start()
