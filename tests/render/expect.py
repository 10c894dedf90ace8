"""What each picture must show, built from the view alone, and the size rules every picture obeys.

The renderer records a mark for each text and icon it draws; these builders list, from the view
dict only, the marks a complete picture must carry. Tests compare the two as multisets, so a
missing, extra or wrong item, number or ship tile fails.
"""

from __future__ import annotations

import io
from collections import Counter
from typing import Any

from PIL import Image

from render import Picture
from render.canvas import Mark

ACTION_LABEL = {a: a.upper() for a in ("hulls", "masts", "sails", "goods")} | {
    a: a.upper() for a in ("transport", "money", "deliver", "crowns")
}
GOODS = ("coffee", "grain", "fish", "salt")


def n(x: int) -> str:
    return f"−{-x}" if x < 0 else str(x)


def drawn(pic: Picture) -> Counter[tuple[str, str]]:
    """What the picture says it shows, decoration ('label') left out."""
    return Counter((m.key, m.value) for m in pic.drawn if m.key != "label")


def board_marks(view: dict[str, Any]) -> Counter[tuple[str, str]]:
    # Waiting for a phase's action, the board is the outcome of the phase before: titled so.
    r, ph = view["round"], view["phase"]
    if view["step"] == "choose" and (r, ph) != (1, 1):
        r, ph = (r, ph - 1) if ph > 1 else (r - 1, view["phases"])
        want: list[tuple[str, str]] = [("done", "done")]
    else:
        want = []
    want += [("round", f"{r}/{view['rounds']}"), ("phase", f"{ph}/{view['phases']}")]
    over = view["step"] == "over"
    if over:
        want.append(("over", "Game over"))
    else:
        sp = view["start_player"]
        want += [("start", "flag"), ("start", f"player_{sp}"), ("start.name", str(sp + 1))]
    for s in view["spaces"]:
        i = s["index"]
        want.append((f"space.{i}", str(i)))
        b = s["bonus"]
        for kind, icon_name in (("workers", "worker"), ("taler", "taler")):
            if b[kind]:
                want += [(f"space.{i}.bonus.{kind}", f"+{b[kind]}")]
                want += [(f"space.{i}.bonus.{kind}", icon_name)]
        if b["vp"]:
            want.append((f"space.{i}.bonus.vp", f"+{b['vp']}"))
        if b["tile"]:
            want += [(f"space.{i}.bonus.tile", "+1"), (f"space.{i}.bonus.tile", f"{b['tile']}_any")]
        want.append((f"space.{i}.action", ACTION_LABEL[s["action"]]))
        if not s["paid"]:
            want.append((f"space.{i}.action", f"act_{s['action']}"))
        if s["flipped"]:
            want.append((f"space.{i}.state", "flipped"))
        if s["current"]:
            want.append((f"space.{i}.state", "current"))
        if view["anchor_tile"] == i:
            want.append((f"space.{i}", "anchor_tile"))
        if view["wheel_anchor"] == i:
            want += [(f"space.{i}", "wheel_anchor"), ("wheel", f"anchor→{i}")]
        want.append((f"space.{i}.blue", str(s["blue"])))
        for k, it in enumerate(s["items"]):
            want += [
                (f"space.{i}.item.{k}", it["item"]),
                (f"space.{i}.price.{k}", str(it["price"])),
            ]
    for p in view["players"]:
        seat = p["seat"]
        want += [(f"player.{seat}", "badge"), (f"player.{seat}.name", str(seat + 1))]
        want.append((f"player.{seat}.score", n(p["score"])))
        if view["start_player"] == seat and not over:
            want.append((f"player.{seat}", "start"))
        if view["current"] == seat:
            want.append((f"player.{seat}.state", "to act"))
    for item, count in view["supply"].items():
        want += [(f"supply.{item}", item), (f"supply.{item}", str(count))]
    return Counter(want)


def shipyard_marks(view: dict[str, Any], seat: int) -> Counter[tuple[str, str]]:
    p = view["players"][seat]
    pre = f"p{seat}"
    want: list[tuple[str, str]] = [(pre, "badge"), (f"{pre}.name", str(seat + 1))]
    if view["start_player"] == seat and view["step"] != "over":
        want.append((pre, "start"))
    want.append((f"{pre}.score", n(p["score"])))
    for k, t in enumerate(p["pass_tiles"]):
        want.append((f"{pre}.pass.{k}", "flipped" if t["flipped"] else n(t["value"])))
    want.append((f"{pre}.extra", p["extra"]))
    for name, field in (("worker", "workers"), ("taler", "taler"), ("crown", "crowns")):
        want += [(f"{pre}.{name}", name), (f"{pre}.{name}", n(p[field]))]
    for g in GOODS:
        want += [(f"{pre}.delivered.{g}", g), (f"{pre}.delivered.{g}", n(p["delivered"][g]))]
    st = p["storage"]
    want.append((f"{pre}.storage.used", f"{st['used']}/{st['capacity']}"))
    want += [(f"{pre}.storage", item) for item in st["items"]]
    for ship in p["ships"]:
        key = f"{pre}.ship.{ship['index'] + 1}"
        want.append((key, f"#{ship['index'] + 1}"))
        if ship["finished"]:
            want.append((key, "finished"))
        for k, t in enumerate(ship["tiles"]):
            want.append((f"{key}.{k}.hull", t["hull"]))
            for part in ("mast", "sail", "good"):
                if t[part] is not None:
                    want.append((f"{key}.{k}.{part}", t[part]))
    return Counter(want)


def scores_marks(view: dict[str, Any]) -> Counter[tuple[str, str]]:
    want: list[tuple[str, str]] = []
    for s in view["final"]:
        pre = f"p{s['seat']}"
        want += [(pre, "badge"), (f"{pre}.name", str(s["seat"] + 1))]
        f = f"{pre}.final"
        want.append((f"{f}.track", n(s["track"])))
        for g in GOODS:
            want.append((f"{f}.goods.{g}", f"{s['goods'][g]}\u2009→\u2009{s['goods_vp'][g]}"))
        want.append((f"{f}.ships", "/".join(str(s["ships"][k]) for k in ("1", "2", "3", "4"))))
        want.append((f"{f}.ships_vp", n(s["ships_vp"])))
        for key, field in (
            ("workers", "workers"),
            ("storage", "storage_tiles"),
            ("unfinished", "unfinished_parts"),
            ("on_ships", "goods_on_ships"),
            ("taler", "taler"),
            ("total_taler", "total_taler"),
        ):
            want.append((f"{f}.{key}", str(s[field])))
        want.append((f"{f}.leftover_vp", n(s["leftover_vp"])))
        want.append((f"{f}.vp", n(s["vp"])))
        want.append((f"{f}.tiebreak", str(s["tiebreak"][0])))
        want.append((f"{f}.rank", {1: "1st", 2: "2nd", 3: "3rd"}.get(s["rank"], f"{s['rank']}th")))
        if s["rank"] == 1:
            want.append((f"{f}.winner", "winner"))
    return Counter(want)


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def check_rules(pic: Picture) -> None:
    """The size rules of issue 3, the 12-px rule from the font sizes, and a clean layout."""
    im = Image.open(io.BytesIO(pic.data))
    im.load()
    assert im.size == (pic.width, pic.height)
    assert im.mode in ("P", "RGB")  # 256-colour PNG or RGB WebP, never with alpha
    w, h = im.size
    assert max(w, h) <= 1600, (w, h)
    assert 3 / 4 <= w / h <= 16 / 9, (w, h)
    assert len(pic.data) <= 1_000_000, len(pic.data)
    assert 0 < len(pic.alt_text) <= 1024  # Discord's attachment description limit
    texts = [m for m in pic.drawn if m.is_text]
    assert texts
    for m in texts:
        assert m.font_px * 400 / w >= 12, m
    for m in pic.drawn:
        x0, y0, x1, y1 = m.box
        assert 0 <= x0 <= x1 <= w and 0 <= y0 <= y1 <= h, m
    # Icons and crests too stay >= 12 px on their shorter side at the 400-px preview.
    for m in pic.drawn:
        if m.kind == "icon":
            x0, y0, x1, y1 = m.box
            assert min(x1 - x0, y1 - y0) * 400 / w >= 12, m
    # Nothing that carries meaning may hide behind a text: texts overlap neither each other nor
    # an icon.
    icons = [m for m in pic.drawn if m.kind == "icon"]
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            assert not _overlap(a.box, b.box), (a, b)
        for b in icons:
            assert not _overlap(_ink(a), b.box), (a, b)


def _ink(m: Mark) -> tuple[int, int, int, int]:
    # A text's line box includes the font's descent and line gap; allow icons into those margins.
    x0, y0, x1, y1 = m.box
    pad = m.font_px // 5
    return (x0 + 1, y0 + pad, x1 - 1, y1 - pad)
