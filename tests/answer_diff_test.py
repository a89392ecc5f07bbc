"""scripts/answer_diff.py on tests/data/example.json: plain and gzipped
answers (docs/answers keeps them gzipped), costs and connected parts."""
import gzip
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "answer_diff.py")
PROBLEM = os.path.join(HERE, "data", "example.json")


def main():
    with tempfile.TemporaryDirectory() as d:
        a = os.path.join(d, "a.txt")
        b = os.path.join(d, "b.txt.gz")
        with open(a, "w") as f:
            f.write("# a run's progress line\n[0, 0, 0, 0, 0]\n")
        with gzip.open(b, "wt") as f:
            f.write("[0, 1, 1, 1, 0]\n")
        out = subprocess.run([sys.executable, SCRIPT, PROBLEM, a, b], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        # Nodes 275, edges 30 + 50 + 90 + 60 + 70.
        assert "A: cost 575 (nodes 275, edges 300)" in out.stdout, out.stdout
        # Nodes 1 and 3 share an edge; node 2 touches neither.
        assert "3 nodes differ, in 2 connected components" in out.stdout, out.stdout
        bad = subprocess.run([sys.executable, SCRIPT, PROBLEM, a, a + ".missing"], capture_output=True, text=True)
        assert bad.returncode != 0
    print("answer_diff: ok")


if __name__ == "__main__":
    main()
