

def test_diff_into_a_file_and_with_an_unreadable_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "refused.json"
    path.write_bytes(REFUSED.read_bytes())
    bad = Path(write(tmp_path, "bad.json", '{"nodes": [\n'))
    out = tmp_path / "fix.diff"
    result = run(capsys, "check", "--diff", "--output", str(out), str(bad), str(path))
    # The other file's diff is still written; the broken one makes it exit 2.
    assert (result.code, result.out) == (2, "")
    assert result.err.startswith(f"{bad}:2:1: error: invalid JSON")
    assert out.read_text(encoding="utf-8").startswith(f"--- {path}\n+++ {path}\n@@ -1,7 +1,7 @@\n")
    assert path.read_bytes() == REFUSED.read_bytes()
