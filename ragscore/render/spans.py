"""The writers of a span test set's derived labels (:class:`ragscore.usecases.spans.SpanLabels`):
text for people (per question its relevant chunks, per claim its full and partial chunks,
then every label this chunking lost), JSON and CSV as data."""
import json

from ..core.rules import show


def labels_text(rows, report):
    lines = [f"Chunk labels derived from spans ({report['chunks']} chunks of "
             f"{report['documents']} documents; relevant: chunk (grade); per claim: full "
             "chunks contain an evidence span, partial ones only overlap one):"]
    for row in rows:
        relevant = ", ".join(f"{chunk} ({grade})" for chunk, grade in row["relevant"].items())
        lines.append(f"{row['case']}: relevant {relevant or 'none'}")
        for claim, chunks in row["claims"].items():
            lines.append(f"  claim {claim}: full {', '.join(chunks['full']) or 'none'}; "
                         f"partial {', '.join(chunks['partial']) or 'none'}")
    lines += ["", counts_line(report)]
    lines += [f"- {label['status']}: {label['case']} {label['kind']}"
              + (f" {label['claim']}" if label.get("claim") else "")
              + f" {show(label['text'], limit=50)} in {label['doc']}"
              for label in report["labels"] if label["status"] not in ("kept", "moved")]
    return "\n".join(lines) + "\n"


def counts_line(report):
    counts = report["counts"]
    return (f"Span labels: {len(report['labels'])}; kept {counts['kept']}, moved "
            f"{counts['moved']}, orphaned {counts['orphaned']}, ambiguous "
            f"{counts['ambiguous']}, in no chunk {counts.get('unreached', 0)}: {report['lost']} "
            "lost (kept in the folder, not applied)")


def labels_csv(rows):
    """One line per derived label: ``case,kind,claim,chunk,grade`` (kind ``relevant``,
    ``full`` or ``partial``), cells escaped as every CSV ragscore writes."""
    import csv
    import io

    from ..render.escape import csv_cell

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["case", "kind", "claim", "chunk", "grade"])
    for row in rows:
        case = csv_cell(row["case"])
        writer.writerows([case, "relevant", "", csv_cell(chunk), grade]
                         for chunk, grade in row["relevant"].items())
        for claim, chunks in row["claims"].items():
            writer.writerows([case, level, csv_cell(claim), csv_cell(chunk), ""]
                             for level in ("full", "partial") for chunk in chunks[level])
    return buffer.getvalue()


def span_labels_text(result, display):
    return labels_text(result.rows, result.report)


def span_labels_json(result, display):
    report = result.report
    return json.dumps({"cases": result.rows, "labels": report["labels"],
                       "counts": report["counts"], "lost": report["lost"]},
                      indent=2, ensure_ascii=False) + "\n"


def span_labels_csv(result, display):
    return labels_csv(result.rows)
