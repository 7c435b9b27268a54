"""python -m mlc.fuzz --minutes N [--seed S] [--out DIR] [--fuzzers hlo,mutant,numpy]"""

import argparse
import sys

from .runner import FUZZERS, main

parser = argparse.ArgumentParser(prog="python -m mlc.fuzz", description=__doc__)
parser.add_argument("--minutes", type=float, default=10.0)
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--out", default="fuzz-failures")
parser.add_argument("--fuzzers", default=",".join(FUZZERS))
parser.add_argument("--examples-per-round", type=int, default=40)
parser.add_argument("--skip-known", action="store_true",
                    help="let failures of known bugs (mlc/fuzz/known.py) pass")
args = parser.parse_args()
sys.exit(main(args.minutes, args.seed, args.out, tuple(args.fuzzers.split(",")), args.examples_per_round,
              args.skip_known))
