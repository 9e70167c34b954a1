"""Reading a benchmark's --csv file: the rows as dicts. No matplotlib, so the table scripts
(sort_table.py) run on a bare python3; plotlib re-exports it for the plot scripts."""

import csv


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))
