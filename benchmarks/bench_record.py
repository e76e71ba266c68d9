"""``ragscore record`` against a local endpoint that answers instantly.

    python benchmarks/bench_record.py                     # 10,000 questions
    python benchmarks/bench_record.py --questions 500     # a quick look

The endpoint is a standard-library HTTP server (HTTP/1.1, kept-alive connections) in a
separate process, so it does not share the recorder's interpreter. Three timings, each of
the same questions:

- ``ragscore record`` (the whole recording: read the folder, every call with the journal
  written and flushed per call, the folder written), default concurrency (8 threads);
- a bare client (the peer): the same POSTs on 8 threads with ``http.client`` and nothing
  else (no journal, no checks, no folder);
- ``ragscore.record`` with an in-process function that answers instantly (no network).

The recorder's own overhead per call is given twice: (record − bare client) / questions,
and the in-process recording's time / questions. Goal: 10,000 questions under 30 s.
"""
import argparse
import http.client
import json
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

SERVER = r'''
import json, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    def log_message(self, *args):
        pass
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        number = int(body["case"][1:])
        data = json.dumps({"answer": "An answer.", "retrieved": [f"d{(number + i) % 1000}"
                           for i in range(10)], "tokens": 12}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
'''


def make_dataset(folder, questions):
    import ragscore

    corpus = {f"d{n}": None for n in range(1000)}
    cases = {f"q{n}": {"question": f"Question number {n}?", "relevant": (f"d{n % 1000}",)}
             for n in range(questions)}
    ragscore.save_dataset(ragscore.Dataset(corpus=corpus, cases=cases, runs={}, ids="open",
                                           name="bench"), folder)


def bare_client(url_port, questions, concurrency=8):
    """The peer: POST every question on ``concurrency`` threads, read and parse the JSON."""
    work = queue.Queue()
    for n in range(questions):
        work.put(n)

    def worker():
        connection = http.client.HTTPConnection("127.0.0.1", url_port, timeout=30)
        while True:
            try:
                n = work.get_nowait()
            except queue.Empty:
                return
            connection.request("POST", "/ask", body=json.dumps(
                {"question": f"Question number {n}?", "case": f"q{n}", "trial": 1}),
                headers={"Content-Type": "application/json"})
            json.loads(connection.getresponse().read())

    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=10_000)
    options = parser.parse_args()
    import ragscore
    from ragscore.recording import record_endpoint

    n = options.questions
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "tests"
        make_dataset(folder, n)
        server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE,
                                  text=True)
        try:
            port = int(server.stdout.readline())
            url = f"http://127.0.0.1:{port}/ask"
            started = time.perf_counter()
            recorded = record_endpoint(folder, url, system="bench", out=Path(tmp) / "out",
                                       progress=open(__import__("os").devnull, "w"))
            recording = time.perf_counter() - started
            summary = recorded.manifests["bench"]["recorder"]
            assert summary["calls"] == n and summary["failed"] == 0, summary
            bare = bare_client(port, n)
        finally:
            server.terminate()
            server.wait()
        dataset = ragscore.load_dataset(folder)
        started = time.perf_counter()
        ragscore.record(dataset, lambda question: {"retrieved": ["d1", "d2"], "answer": "A."},
                        system="inproc")
        in_process = time.perf_counter() - started
    print(f"{n:,} questions, default concurrency 8, local endpoint in another process")
    print(f"ragscore record (read, {n:,} calls journalled, folder written): "
          f"{recording:.2f} s ({n / recording:,.0f} calls/s); goal under 30 s for 10,000: "
          f"{'met' if recording * 10_000 / n < 30 else 'NOT met'}")
    print(f"bare http.client, 8 threads, same calls: {bare:.2f} s ({n / bare:,.0f} calls/s)")
    print(f"recorder overhead per call, (record - bare) / calls: "
          f"{(recording - bare) / n * 1000:.3f} ms")
    print(f"recorder overhead per call, in-process function (no network): "
          f"{in_process / n * 1000:.3f} ms")


if __name__ == "__main__":
    main()
