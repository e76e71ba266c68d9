"""TREC qrels and run files (trec_eval, pytrec_eval, ir_measures, ranx) as a dataset.

Qrels lines are ``qid iter docno rel`` (``iter`` ignored; ``rel`` an integer grade, zero or
negative allowed); run lines are ``qid Q0 docno rank score tag`` (``Q0`` and ``rank``
ignored; ``tag`` names the system). Fields are separated by whitespace; blank lines and
lines starting with ``#`` are skipped.

Each system's ranking of a question is ordered exactly as trec_eval orders it: score
descending, ties broken by docno descending comparing UTF-8 bytes. Python compares ``str``
by code point, which is the same order as comparing UTF-8 bytes, so
``sorted(zip(scores, docnos), reverse=True)`` is that order.

Run files are read in blocks of whole lines. The common, valid path does one ``str.split``
per line and, for each stretch of lines of one question, a few passes in C (``float``,
interning docnos); any block that looks wrong (a control character, a field count, a score that is not a finite
number, an ID too long or unknown) is read again line by line, and the first problem is
reported with its line. Per question only the docnos (one shared ``str`` per docno) and an
``array`` of scores are kept until the file ends, then each question is sorted once; for
``ragscore import trec`` each question is sorted and encoded as soon as its lines end (see
:class:`RunReader`).

Large run files are shared between two processes (:func:`read_runs`): the later files are
read by a forked child, whose rankings come back as JSON and keep their own ``str`` per
ranked docno (about 70 bytes each: more memory, less time). For ``ragscore import trec``,
which only saves them, they come back already encoded as the runs file writes them
(:func:`import_trec_encoded`).
"""
import json
import os
import re
from array import array
from collections import deque, namedtuple
from itertools import islice
from math import isfinite
from operator import itemgetter

from ...core.parallel import can_fork
from ...core.rules import OPEN, show
from ..dataset import Dataset, encoded_ranking, encoded_rankings, encoded_runs_chunks
from ..jsonl import MAX_FILE_BYTES, DatasetFileError, where
from ._common import (BLOCK_BYTES, NoCollection, assemble_runs, blocks, check_id,
                      check_options, fail_at, file_names, is_grade, lines, open_input, paths_of,
                      stem)

__all__ = ["EncodedRuns", "RunReader", "import_trec", "import_trec_encoded", "read_qrels"]

RUN_FIELDS = "qid Q0 docno rank score tag"
QRELS_FIELDS = "qid iter docno rel"
#: The longest ID the open rules allow.
MAX_ID = 512
#: Run files at least this large (together) are read by two processes (see read_runs).
PARALLEL_BYTES = 8 << 20
# Bytes a block may hold without a closer look: ASCII whitespace and printable ASCII.
_PLAIN_BYTES = bytes([9, 10, 11, 12, 13, 28, 29, 30, 31]) + bytes(range(32, 127))
# Characters an ID may not hold that str.split does not already treat as whitespace.
_CONTROL = re.compile("[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]").search
_DOCNO, _SCORE, _SECOND = itemgetter(2), itemgetter(4), itemgetter(1)


def _is_comment(fields):
    return not fields or fields[0][0] == "#"


# ---- qrels ----------------------------------------------------------------------------------

def read_qrels(path, documents, *, max_bytes=MAX_FILE_BYTES, max_ids=OPEN.max_ids):
    """``{qid: {docno: grade}}`` from the qrels file at ``path``, questions and documents in
    order of first appearance; each docno is entered in ``documents`` (docno to itself, so
    every ranking shares one ``str`` per docno).
    """
    judged = {}
    for number, line in lines(path, max_bytes):
        fields = line.split()
        if _is_comment(fields):
            continue
        if len(fields) != 4:
            fail_at(path, number, f"expected 4 whitespace-separated fields ({QRELS_FIELDS}); "
                                  f"got {len(fields)}")
        qid, _, docno, rel = fields
        grades = judged.get(qid)
        if grades is None:
            grades = judged[check_id(qid, "qid", path, number)] = {}
        if docno in grades:
            first = next(n for n, other in lines(path, max_bytes)
                         if other.split()[:1] == [qid] and other.split()[2:3] == [docno])
            fail_at(path, number, f"question {show(qid)} judges document {show(docno)} twice "
                                  f"(first on line {first})")
        if not is_grade(rel):
            fail_at(path, number, f"rel must be an integer grade; got {show(rel)}")
        if len(grades) == max_ids:
            fail_at(path, number, f"question {show(qid)} judges more than {max_ids:,} "
                                  "documents, the most a case may hold")
        if docno not in documents:
            documents[check_id(docno, "docno", path, number)] = docno
        grades[documents[docno]] = int(rel)
    if not judged:
        raise DatasetFileError(f"{where(path)}: holds no judgements")
    return judged


# ---- runs -----------------------------------------------------------------------------------

class _Suspect(Exception):
    """A block of a run file needs to be read again line by line to name its problem."""


class _Scattered(Exception):
    """A run file read with each question's ranking encoded as its lines end (see
    :class:`RunReader`) needs reading again the ordinary way: a question's lines are not
    all together, or a ranking is too long or ranks a docno twice (which the ordinary
    reading reports in its order)."""


_ENCODED = False  # the store of a question whose ranking is already encoded
#: The bytes read from a run file at a time (whole lines; see ``_common.blocks``).
READ_BYTES = BLOCK_BYTES


class RunReader:
    """Reads TREC run files into rankings ordered as trec_eval orders them.

    ``keep``: the questions to keep (those with labels); the others are checked line by
    line, counted per system in ``unjudged`` and dropped. ``documents``: docno to the one
    ``str`` kept for it. With ``known_as=None`` new docnos join ``documents`` (the corpus
    grows); otherwise ``documents`` is the corpus and ``known_as`` names where it comes
    from, for the error naming a docno outside it.

    After :meth:`read`, ``rankings[system][question]`` is a tuple of docnos, best first,
    ``unjudged[system]`` the set of dropped questions and ``origin[system]`` the file and
    line where the system's tag first appears.

    Problems within a line are reported in file order as blocks are read; a docno ranked
    twice or a ranking over ``max_ids`` is found when the file has been read (its lines are
    then looked up again to be named).

    ``encode=True`` (``ragscore import trec``, which only writes the rankings): each
    ranking is held as the JSON text the runs file writes
    (:func:`~ragscore.io.dataset.encoded_ranking`, bytes) and its systems are listed in
    ``encoded``. When each question's lines come together, as run files write them, a
    ranking is sorted and encoded as soon as its last line is read, while its docnos are
    still in the CPU cache, and the file is read once. Otherwise (a question's lines
    apart, a docno ranked twice, a ranking too long) the file is read again the ordinary
    way and its rankings encoded at the end, so the result and any error are the same.
    """

    def __init__(self, keep, documents, *, known_as=None, max_bytes=MAX_FILE_BYTES,
                 max_ids=OPEN.max_ids, encode=False):
        self.keep, self.documents, self.known_as = keep, documents, known_as
        self.max_bytes, self.max_ids, self.encode = max_bytes, max_ids, encode
        self.rankings, self.unjudged, self.origin = {}, {}, {}
        self.encoded = set()  # systems whose rankings are held encoded (see read_runs)
        self._open_key = None  # (tag, qid) whose lines are being read, when encoding early
        self._early = False  # this file's rankings are encoded as their lines end

    def read(self, path):
        """Read one run file (it may hold several tags, each a system)."""
        if self.encode:
            before = set(self.origin)
            try:
                return self._read(path, early=True)
            except _Scattered:
                for tag in set(self.origin) - before:  # forget what this file began
                    del self.origin[tag], self.rankings[tag], self.unjudged[tag]
                    self.encoded.discard(tag)
        self._read(path, early=False)
        if self.encode:
            _encode(self)

    def _read(self, path, *, early):
        """Read one run file; ``early``: encode each ranking as its lines end, or raise
        :class:`_Scattered` (see the class)."""
        stores = {}  # (tag, qid) -> [docnos, scores] until the file ends; None: dropped
        tags = set()
        self._open_key, self._early = None, early
        with NoCollection(), open_input(path, self.max_bytes) as handle:
            for number, data, text in blocks(path, handle, self.max_bytes, READ_BYTES):
                block = text.split("\n")
                plain = not data.translate(None, _PLAIN_BYTES) or not _CONTROL(text)
                try:
                    self._block(path, number, block, stores, tags, plain)
                except _Suspect:
                    for _ in self._checked(path, number, block):
                        pass
                    raise AssertionError(  # pragma: no cover (a suspect block has a problem)
                        f"{where(path, number)}: a block was suspected but no line is wrong")
            if not tags:
                raise DatasetFileError(f"{where(path)}: holds no run lines")
            if not early:
                self._finish(path, stores)
                return
            if self._open_key is not None:
                self._encoded(stores, self._open_key)
            self.encoded.update(tags)

    def _block(self, path, number, block, stores, tags, plain):
        """Add one block of lines to ``stores``: one ``split`` per line, then per question a
        few passes in C (see :meth:`_flush`); encoding early as :meth:`_read` was asked."""
        fields_of = map(str.split, block) if plain else self._checked(path, number, block)
        current_qid = current_tag = pending = add = None
        for fields in fields_of:
            try:
                qid, _, _, _, _, tag = fields
            except ValueError:
                if _is_comment(fields):
                    continue
                raise _Suspect from None
            if qid == current_qid and tag == current_tag:  # the same question goes on
                add(fields)
                continue
            if qid[0] == "#":
                continue  # a comment that happens to have six fields
            if pending:
                self._flush(stores[current_tag, current_qid], pending)
            if self._early:
                self._next_question(stores, (tag, qid))
            if (tag, qid) not in stores:
                self._open(path, number, block, stores, tags, tag, qid)
            current_qid, current_tag = qid, tag
            pending = [fields]
            add = pending.append
        if pending:
            self._flush(stores[current_tag, current_qid], pending)

    def _next_question(self, stores, key):
        """Reading early-encoded rankings: lines of ``key`` (tag, qid) come next, so the
        ranking being read, if another, is complete; a ranking already complete may not
        go on."""
        if key != self._open_key:
            if self._open_key is not None:
                self._encoded(stores, self._open_key)
            if stores.get(key) is _ENCODED:
                raise _Scattered
            self._open_key = key

    def _encoded(self, stores, key):
        """Sort and encode the complete ranking of ``key`` (tag, qid), unless dropped."""
        store = stores[key]
        if store is None:
            return
        docnos, scores = store
        if len(docnos) > self.max_ids or len(set(docnos)) != len(docnos):
            raise _Scattered  # the ordinary reading names the line
        tag, qid = key
        self.rankings[tag][qid] = encoded_rankings(
            (list(map(_SECOND, sorted(zip(scores, docnos), reverse=True))),))[0]
        stores[key] = _ENCODED

    def _open(self, path, number, block, stores, tags, tag, qid):
        """Start the ranking of ``qid`` by ``tag`` (or mark it dropped)."""
        if len(qid) > MAX_ID or len(tag) > MAX_ID:
            raise _Suspect
        if tag not in tags:
            line = next(number + offset for offset, text in enumerate(block)
                        if _tag_of(text) == tag)
            if tag in self.origin:
                fail_at(path, line, f"system {show(tag)} (the run's tag) is also in "
                                    f"{where(*self.origin[tag])}; each system's run must be "
                                    "in one file")
            tags.add(tag)
            self.origin[tag] = (path, line)
            self.rankings[tag], self.unjudged[tag] = {}, set()
        if qid in self.keep:
            stores[tag, qid] = [[], array("d")]
        else:
            stores[tag, qid] = None
            self.unjudged[tag].add(qid)

    def _flush(self, store, pending):
        """Add the lines ``pending`` (of one question) to its ``store``: scores as doubles,
        each docno as the one ``str`` kept for it."""
        docnos = list(map(_DOCNO, pending))
        try:
            scores = array("d", map(float, map(_SCORE, pending)))
        except ValueError:
            raise _Suspect from None
        if not isfinite(sum(scores)) and not all(map(isfinite, scores)):
            raise _Suspect
        if max(map(len, docnos)) > MAX_ID:
            raise _Suspect
        if store is None:
            return  # a question without labels: checked, not kept
        if self.known_as is None and self._early:
            # the corpus gains the new docnos; the ranking keeps the docnos just read, still
            # in the CPU cache when it is sorted and encoded (the corpus's are not)
            store[0].extend(docnos)
            deque(map(self.documents.setdefault, docnos, docnos), 0)
        elif self.known_as is None:
            store[0].extend(map(self.documents.setdefault, docnos, docnos))
        else:
            names = list(map(self.documents.get, docnos))
            if None in names:
                raise _Suspect
            store[0].extend(names)
        store[1].extend(scores)

    def _checked(self, path, number, block):
        """Yield the fields of each run line of ``block``, checking each line; raise naming
        the first line with a problem."""
        for offset, text in enumerate(block):
            fields = text.split()
            if _is_comment(fields):
                continue
            line = number + offset
            if len(fields) != 6:
                fail_at(path, line, f"expected 6 whitespace-separated fields ({RUN_FIELDS}); "
                                    f"got {len(fields)}")
            qid, _, docno, _, score, tag = fields
            check_id(qid, "qid", path, line)
            check_id(docno, "docno", path, line)
            check_id(tag, "tag", path, line)
            try:
                value = float(score)
            except ValueError:
                fail_at(path, line, f"score must be a number; got {show(score)}")
            if not isfinite(value):
                fail_at(path, line, f"score must be a finite number; got {show(score)}")
            if self.known_as is not None and qid in self.keep and docno not in self.documents:
                fail_at(path, line, f"document {show(docno)} is not in {self.known_as}")
            yield fields

    def _finish(self, path, stores):
        """Sort each question of the file once, trec_eval's order; refuse a docno ranked
        twice or a ranking longer than the rules allow."""
        for (tag, qid), store in stores.items():
            if store is None:
                continue
            docnos, scores = store
            if len(docnos) > self.max_ids:
                line = next(islice(self._lines_of(path, tag, qid), self.max_ids, None), None)
                fail_at(path, line, f"question {show(qid)} of system {show(tag)} ranks more "
                                    f"than {self.max_ids:,} documents, the most a ranking may "
                                    f"hold; keep each question's top {self.max_ids:,}")
            if len(set(docnos)) != len(docnos):
                seen = set()
                docno = next(d for d in docnos if d in seen or seen.add(d))
                found = list(islice(self._lines_of(path, tag, qid, docno), 2))
                first = f" (first on line {found[0]})" if len(found) == 2 else ""
                fail_at(path, found[-1] if found else None,
                        f"document {show(docno)} is ranked twice for question {show(qid)} by "
                        f"system {show(tag)}{first}")
            self.rankings[tag][qid] = tuple(map(_SECOND, sorted(zip(scores, docnos),
                                                                reverse=True)))
            store.clear()  # free the lists as the rankings are built

    def _lines_of(self, path, tag, qid, docno=None):
        """Numbers of the run lines of ``qid`` by ``tag`` (of ``docno`` only, if given), read
        again from the file: only to name lines in an error."""
        for number, text in lines(path, self.max_bytes):
            fields = text.split()
            if (len(fields) == 6 and fields[0] == qid and fields[5] == tag
                    and (docno is None or fields[2] == docno)):
                yield number


def _tag_of(text):
    fields = text.split()
    return fields[5] if len(fields) == 6 and fields[0][0] != "#" else None


# ---- two processes --------------------------------------------------------------------------

def read_runs(reader, paths):
    """``reader.read(path)`` for each of ``paths``, in order, with the later files read by a
    forked child meanwhile when the files are large (reading is most of an import's time).

    A reader made with ``encode=True`` (for a caller that only writes the rankings:
    ``ragscore import trec``) holds its rankings as the JSON text the runs file writes
    (:func:`~ragscore.io.dataset.encoded_ranking`, bytes; see :class:`RunReader`), and the
    child sends them so: taking in 10,000,000 docnos as ``str`` would take the parent
    several seconds. The systems held encoded are listed in ``reader.encoded``.

    The child sends what it read back as JSON over a pipe (plain data: no pickle), a line
    at a time so that the parent takes in one part while the child writes the next. Its
    result is used only when it read its files without a problem and none of its tags is
    also in the parent's files, which is exactly when reading the files in order gives the
    same result; otherwise (a bad line, a tag in two files, a failed child) the parent reads
    the child's files itself, in order, so every error is the one a single pass raises.
    """
    paths, encoded = list(paths), reader.encode
    split = _split_point(paths)
    if split is None:
        for path in paths:
            reader.read(path)
        return
    mine, theirs = paths[:split], paths[split:]
    known = len(reader.documents)
    receiver, sender = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover (runs in the child process; its result is tested)
        os.close(receiver)
        with os.fdopen(sender, "wb") as pipe:
            try:
                for path in theirs:
                    reader.read(path)
                for line in _sent(reader, theirs, known, encoded):
                    pipe.write(line)
            except BaseException:  # the parent reads these files again and raises the error
                try:
                    pipe.write(b'\n{"failed": true}\n')
                except BaseException:
                    pass
        os._exit(0)
    os.close(sender)
    with os.fdopen(receiver, "rb") as pipe:
        try:
            for path in mine:
                reader.read(path)
            taken = _take(reader, theirs, pipe, encoded)
        except BaseException:
            os.kill(child, 9)
            os.waitpid(child, 0)
            raise
        if not taken:
            os.kill(child, 9)
    os.waitpid(child, 0)
    if not taken:
        for path in theirs:
            reader.read(path)


def _encode(reader):
    """Hold each ranking read so far as :func:`~ragscore.io.dataset.encoded_ranking` gives
    it (see :func:`read_runs`), a batch at a time (:func:`~ragscore.io.dataset.
    encoded_rankings`)."""
    for tag, ranked in reader.rankings.items():
        if tag in reader.encoded:
            continue
        rankings, encoded = iter(ranked.values()), []
        for _ in range(0, len(ranked), _SENT_RANKINGS):
            encoded += encoded_rankings(islice(rankings, _SENT_RANKINGS))
        reader.rankings[tag] = dict(zip(ranked, encoded))
        reader.encoded.add(tag)


def _split_point(paths):
    """Where to split ``paths`` between the two processes (about half the bytes each), or
    ``None`` to read them all in this one."""
    if len(paths) < 2 or not can_fork():
        return None
    try:
        sizes = [os.stat(path).st_size for path in paths]
    except (OSError, TypeError, ValueError):
        return None  # reading them in order names the problem
    if sum(sizes) < PARALLEL_BYTES:
        return None
    total, before = sum(sizes), 0
    best = (total, 1)
    for split in range(1, len(paths)):
        before += sizes[split - 1]
        best = min(best, (max(before, total - before), split))
    return best[1]


#: How many rankings one line from the child holds.
_SENT_RANKINGS = 4000


def _sent(reader, paths, known, encoded=False):
    """What the child read, as lines of JSON: first the docnos it added to ``documents``
    and per system its file and line, dropped questions and question count; then the
    rankings, a line of ``[qids, rankings]`` at a time, each ranking's docnos joined by
    spaces (a docno holds no whitespace); last ``"end"``.

    ``encoded``: each batch of rankings is instead a line of JSON ``[qids, size]`` and then
    ``size`` bytes: each ranking's :func:`~ragscore.io.dataset.encoded_ranking` on a line
    of its own (JSON text holds no line break)."""
    systems = []
    for tag, ranked in reader.rankings.items():
        path, line = reader.origin[tag]
        systems.append([tag, paths.index(path), line, sorted(reader.unjudged[tag]),
                        len(ranked)])
    yield _json_line({"documents": " ".join(islice(reader.documents, known, None)),
                      "systems": systems})
    for tag, ranked in reader.rankings.items():
        qids, rankings = iter(ranked), iter(ranked.values())
        for _ in range(0, len(ranked), _SENT_RANKINGS):
            batch = list(islice(qids, _SENT_RANKINGS))
            if encoded:
                batch_rankings = islice(rankings, _SENT_RANKINGS)
                if tag not in reader.encoded:
                    batch_rankings = encoded_rankings(batch_rankings)
                data = b"\n".join(batch_rankings) + b"\n"
                yield _json_line([batch, len(data)])
                yield data
            else:
                yield _json_line([batch, list(map(" ".join, islice(rankings, _SENT_RANKINGS)))])
    yield _json_line("end")


def _json_line(value):
    return json.dumps(value).encode("utf-8") + b"\n"  # json.dumps writes no line break


def _received(pipe):
    """The next line from the child, or ``None`` when it holds no JSON (a failed child)."""
    try:
        return json.loads(pipe.readline())
    except ValueError:
        return None


def _take(reader, paths, pipe, encoded=False):
    """Add what the child sends on ``pipe`` to ``reader``, as if this process had read
    ``paths`` next; return False (``reader`` unchanged) when the child failed or one of its
    systems is also in this process's files. ``encoded``: as :func:`_sent`; each ranking
    is kept as the bytes received, its systems added to ``reader.encoded``.

    The docnos of the child's rankings are not looked up in ``documents`` to share one
    ``str`` per docno (as when reading): each lookup is a cache miss, 10 million of them
    would add several seconds to the step the import waits for, and skipping them costs
    about 70 bytes per ranked docno."""
    head = _received(pipe)
    if type(head) is not dict or any(tag in reader.origin for tag, *_ in head["systems"]):
        return False
    received = {}
    with NoCollection():
        for tag, _, _, _, count in head["systems"]:
            ranked = received[tag] = {}
            while len(ranked) < count:
                part = _received(pipe)
                if type(part) is not list or len(part) != 2 or not part[0]:
                    return False
                if encoded:
                    rankings = _encoded_batch(pipe, part)
                    if rankings is None:
                        return False
                    ranked.update(zip(part[0], rankings))
                    continue
                ranked.update(zip(part[0], [tuple(ranking.split(" ")) if ranking else ()
                                            for ranking in part[1]]))
        if _received(pipe) != "end":
            return False
        added = head["documents"].split(" ") if head["documents"] else ()
        # new docnos at the end in the child's order; one met here first keeps its place
        # (dict.update, in C; its value becomes the child's equal str, which only a later
        # read would share)
        reader.documents.update(zip(added, added))
        for tag, index, line, unjudged, _ in head["systems"]:
            reader.origin[tag] = (paths[index], line)
            reader.unjudged[tag] = set(unjudged)
            reader.rankings[tag] = received[tag]
            if encoded:
                reader.encoded.add(tag)
    return True


def _encoded_batch(pipe, head):
    """The encoded rankings of one batch (``head`` is ``[qids, size]``), or ``None`` when
    what arrives is not ``size`` bytes of as many lines, each a JSON list (a failed
    child)."""
    qids, size = head
    if type(size) is not int or size < 0:
        return None
    data = pipe.read(size)
    rankings = data.split(b"\n")
    if len(data) != size or rankings.pop() != b"" or len(rankings) != len(qids) or not all(
            ranking[:1] == b"[" and ranking[-1:] == b"]" for ranking in rankings):
        return None
    return rankings


# ---- the importer ---------------------------------------------------------------------------

def import_trec(qrels, runs, *, min_relevance=1, missing_run="zero", name=None,
                max_bytes=MAX_FILE_BYTES):
    """Import TREC qrels and run files; return ``(dataset, notes)``.

    ``qrels``: a qrels file (``qid iter docno rel``). ``runs``: a run file or a sequence of
    them (``qid Q0 docno rank score tag``); each tag is a system, and a tag may not appear
    in two files. Every judged question becomes a case whose ``relevant`` maps each judged
    docno to its grade (judged relevant at ``min_relevance`` or more, as ``trec_eval -l``);
    the corpus is every docno of the qrels and of the kept rankings, without text. Runs
    carry rankings only (no claims: the answer is not assessed).

    Dropped, and counted in ``notes``: questions of a run that have no qrels
    (``"run questions without qrels"``, per system). A judged question a system's run
    lacks (``"judged questions missing from a run"``) gets an empty ranking with
    ``missing_run="zero"`` (``trec_eval -c``) or no run with ``"skip"``.

    >>> import pathlib, shutil, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "qrels.txt").write_text("q1 0 d1 2\\nq1 0 d3 0\\nq2 0 d2 1\\n")
    >>> _ = (folder / "bm25.run").write_text(
    ...     "q1 Q0 d1 1 2.5 bm25\\nq1 Q0 d3 2 2.5 bm25\\nq9 Q0 d2 1 1.0 bm25\\n")
    >>> dataset, notes = import_trec(folder / "qrels.txt", folder / "bm25.run")
    >>> dataset.runs["q1"]["bm25"]["retrieved"]  # a tie at 2.5: docno descending
    ('d3', 'd1')
    >>> dataset.cases["q1"]["relevant"], dataset.runs["q2"]["bm25"]["retrieved"]
    ({'d1': 2, 'd3': 0}, ())
    >>> notes["run questions without qrels"], notes["judged questions missing from a run"]
    ({'bm25': 1}, {'bm25': 1})
    >>> shutil.rmtree(folder)
    """
    return _import(qrels, runs, min_relevance=min_relevance, missing_run=missing_run,
                   name=name, max_bytes=max_bytes)


class EncodedRuns(namedtuple("EncodedRuns", "file count systems")):
    """The runs of :func:`import_trec_encoded`: ``file()`` gives the runs file as bytes (a
    fresh iterable on each call), ``count`` the number of runs, ``systems`` the names of
    the systems with runs (as ``Dataset.systems``)."""

    __slots__ = ()


def import_trec_encoded(qrels, runs, *, min_relevance=1, missing_run="zero", name=None,
                        max_bytes=MAX_FILE_BYTES):
    """:func:`import_trec` for a caller that only saves what it imports (``ragscore import
    trec``): return ``(dataset, notes, encoded)``, ``dataset.runs`` empty and ``encoded`` an
    :class:`EncodedRuns` whose file is exactly the runs file :func:`save_dataset` writes for
    :func:`import_trec`'s dataset. Save with
    ``save_valid_by_construction(dataset, path, runs_file=encoded.file)``
    (:func:`~ragscore.io.dataset.save_valid_by_construction`).

    The rankings read by the forked child (see :func:`read_runs`) stay the JSON text the
    child encoded; they are never taken apart into ``str`` here (several seconds and about
    700 MB for 10,000,000 ranked docnos).
    """
    dataset, notes = _import(qrels, runs, min_relevance=min_relevance,
                             missing_run=missing_run, name=name, max_bytes=max_bytes,
                             encoded=True)
    imported = dataset.runs

    def file():
        return encoded_runs_chunks(
            (case, system, ranking if type(ranking) is bytes else encoded_ranking(ranking))
            for case, per_case in imported.items()
            for system, ranking in zip(per_case, map(_RETRIEVED, per_case.values())))

    count = sum(map(len, imported.values()))
    return dataset._replace(runs={}), notes, EncodedRuns(file, count, dataset.systems)


_RETRIEVED = itemgetter("retrieved")


def _import(qrels, runs, *, min_relevance, missing_run, name, max_bytes, encoded=False):
    """``(dataset, notes)`` as :func:`import_trec` returns them; with ``encoded``, the
    rankings read by the forked child are bytes in ``dataset.runs`` (see
    :func:`read_runs`): for :func:`import_trec_encoded` only, never returned to a caller."""
    name = check_options(name=name, default_name=stem(qrels), missing_run=missing_run,
                         min_relevance=min_relevance)
    run_paths = paths_of(runs, "runs")
    documents = {}
    with NoCollection():
        judged = read_qrels(qrels, documents, max_bytes=max_bytes)
        reader = RunReader(judged, documents, max_bytes=max_bytes, encode=encoded)
        read_runs(reader, run_paths)
        cases = {qid: {"question": "", "relevant": grades} for qid, grades in judged.items()}
        imported, notes = assemble_runs(cases, reader.rankings, reader.unjudged, missing_run)
        corpus = dict.fromkeys(documents)
    description = f"Imported from TREC qrels {file_names([qrels])}"
    if run_paths:
        description += f" and runs {file_names(run_paths)}"
    dataset = Dataset(corpus=corpus, cases=cases, runs=imported, name=name,
                      description=description, ids="open", min_relevance=min_relevance,
                      sources={}, versions={})
    return dataset, notes
