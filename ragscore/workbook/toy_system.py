"""A toy RAG system for chapter 6 to record: a retriever that ranks notes by the words they
share with the question, answering over HTTP the way ``ragscore record`` expects.

``ragscore record`` POSTs ``{"question": ...}`` to an endpoint and reads back ``retrieved``
(IDs, best first), ``delivered`` (the context the answer stage was given) and ``answer``.
:func:`serving` runs such an endpoint on this machine, on a free port, for the length of a
``with`` block. It calls no model, so what it answers is cheap, fixed and measures nothing.
"""
import json
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def words(text):
    """The lower-case words of ``text``, without the closing punctuation.

    >>> sorted(words("Who owns the alert?"))
    ['alert', 'owns', 'the', 'who']
    """
    return set(text.lower().strip(".?!").split())


def overlap_ranking(corpus, question):
    """Every note of ``corpus``, most words shared with ``question`` first (ties in corpus
    order).

    >>> overlap_ranking({"a": "Rain today.", "b": "The alert is owned by Aurora."},
    ...                 "Who owns the alert?")
    ['b', 'a']
    """
    asked = words(question)
    return sorted(corpus, key=lambda doc: -len(words(corpus[doc]) & asked))


def reply(corpus, question, *, context=2):
    """What the system answers: the ranking, its first ``context`` notes as the delivered
    context, and a one-sentence answer pointing at the first note."""
    ranking = overlap_ranking(corpus, question)
    return {"retrieved": ranking, "delivered": ranking[:context],
            "answer": f"See the note {ranking[0]}." if ranking else "No note matches."}


@contextmanager
def serving(corpus, *, context=2):
    """Serve :func:`reply` over ``corpus`` on 127.0.0.1, on a free port; yield the endpoint's
    URL and stop the server when the block ends."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            asked = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            body = json.dumps(reply(corpus, asked["question"], context=context)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):  # no request log on the page
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)  # port 0: any free port
    # shutdown() waits for the serving loop to look at its flag, which it does every
    # poll_interval (0.5 s by default: half a second added to the cell that records)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02},
                              daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/ask"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
