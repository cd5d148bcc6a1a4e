"""svg / png through Graphviz, and the --open HTML page seen in a real headless browser
(Debian's chromium): its screenshot is not blank and shows the stateful operator's colour,
and the DOM chromium rendered holds the picture's operator names inside the SVG."""
import subprocess

from PIL import Image

from pyflink_on_spark.cli.main import main
from pyflink_on_spark.cli.plan.dot import _STATEFUL_FILL
from pyflink_on_spark.cli.plan.tests import plan_jobs


def _write_job(tmp_path) -> str:
    path = tmp_path / "windows.py"
    path.write_text(plan_jobs.SIDE_OUTPUT_AND_WINDOW)
    return str(path)


def test_svg_and_png_through_graphviz(tmp_path, graphviz_dot, capsys):
    job = _write_job(tmp_path)
    assert main(["plan", "--format", "svg", "-o", str(tmp_path / "p.svg"), job]) == 0
    svg = (tmp_path / "p.svg").read_text()
    assert "<svg" in svg and "Sum per key" in svg and "shuffle (HASH)" in svg
    assert main(["plan", "--format", "png", "-o", str(tmp_path / "p.png"), job]) == 0
    with Image.open(tmp_path / "p.png") as image:
        assert image.format == "PNG" and image.width > 400
    assert capsys.readouterr().out.split() == [str(tmp_path / "p.svg"),
                                              str(tmp_path / "p.png")]


def _rgb(hex_colour: str):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def test_the_html_page_renders_in_a_headless_browser(tmp_path, chromium, capsys, monkeypatch):
    monkeypatch.delenv("BROWSER", raising=False)
    page = tmp_path / "plan.html"
    assert main(["plan", "--open", "-o", str(page), _write_job(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == str(page)
    shot = tmp_path / "plan.png"
    browser = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
               "--hide-scrollbars", "--user-data-dir=%s" % (tmp_path / "profile")]
    url = "file://" + str(page)
    subprocess.run(browser + ["--window-size=1400,1100", "--screenshot=%s" % shot, url],
                   check=True, capture_output=True, timeout=180)
    dom = subprocess.run(browser + ["--dump-dom", url], check=True, capture_output=True,
                         timeout=180, text=True).stdout
    svg = dom[dom.index("<svg"):dom.index("</svg>")]
    for name in ("Numbers", "Split odd from even", "Sum per key", "Times ten",
                 "mapInArrow: Sum per key"):
        assert name in svg
    assert "<table>" in dom and "<td>Sum per key</td>" in dom
    with Image.open(shot) as image:
        pixels = image.convert("RGB")
        colours = pixels.getcolors(maxcolors=1 << 20)
    non_white = sum(count for count, rgb in colours if rgb != (255, 255, 255))
    assert non_white > 0.02 * pixels.width * pixels.height
    stateful = _rgb(_STATEFUL_FILL)
    assert any(rgb == stateful and count > 200 for count, rgb in colours)
