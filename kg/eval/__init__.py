"""Measuring extraction: ``kg eval`` scores a graph against gold annotations (``score``)."""


def texts_command(argv: list[str], write, usage: str) -> int:
    """``python -m kg.eval.<benchmark> texts SOURCE OUT.jsonl [...]``: ``write(SOURCE, OUT, ...)``
    writes the benchmark's documents as kg JSONL and says how many."""
    import sys

    if len(argv) >= 3 and argv[0] == "texts":
        print(f"wrote {write(*argv[1:])} documents to {argv[2]}")
        return 0
    print(usage, file=sys.stderr)
    return 2
