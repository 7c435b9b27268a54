#!/bin/sh
# Exports the classifier with MLC, builds main.c against it with the system C compiler, runs it.
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here/build"}
python "$here/model.py" "$out"
cc -O2 "$here/main.c" -I "$out" -L "$out" -lclassifier -Wl,-rpath,"$out" -o "$out/classify"
"$out/classify"
