"""The outlines of the world's countries that ``kg viz --map`` draws: ``ontology/countries.geojson``.

The file is generated, never edited: ``python -m kg.graph.countries SHAPEFILE`` rewrites it from
Natural Earth's 1:110m Admin 0 countries (public domain), read with pyshp, which kg does not
depend on (install it where you run the command). ``ontology/countries.md`` says where the
shapefile comes from. The outlines are rounded to 2 decimals of a degree and a point closer than
0.1 degree to the one kept before it is dropped, which keeps the file small (every page of the
map carries it) and the borders right at the scale of a country.

The file is GeoJSON (RFC 7946: outer rings counter-clockwise, holes clockwise), one country a
line, with its source, licence and the command that made it in a ``metadata`` member: QGIS and
geopandas read it as it is.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

from ..datafiles import problem, text
from ..errors import KGError
from ..resources import ontology_file

FILE = "countries.geojson"
DECIMALS = 2  # about 1 km: finer than the 1:110m source
MIN_STEP = 0.1  # degrees between kept points
SOURCE = {
    "source": "Natural Earth 1:110m Cultural Vectors, Admin 0 - Countries",
    "url": "https://www.naturalearthdata.com/downloads/110m-cultural-vectors/",
    "licence": "public domain (https://www.naturalearthdata.com/about/terms-of-use/)",
}
# where the shapefile of the shipped file came from (PyPI is the one place kg's machines reach)
VIA = ("the geopandas 0.14.4 wheel on PyPI (sha256 3bb6473cb59d51e1a7fe2dbc24a1a063fb0ebdeddf3ce08ddbf8c7ddc99689aa), "
       "geopandas/datasets/naturalearth_lowres/naturalearth_lowres.shp: Natural Earth's file with geopandas' "
       "fixes (ISO codes for -99 where Natural Earth has one, Crimea with Ukraine)")

Ring = tuple[tuple[float, float], ...]  # (longitude, latitude) points, the last the first again


@dataclass(frozen=True)
class Country:
    """A country's outline: ``polygons`` each an outer ring followed by its holes."""

    code: str  # ISO 3166-1 alpha-3 ("SYR"); "" where Natural Earth gives none (Kosovo)
    name: str
    polygons: tuple[tuple[Ring, ...], ...]

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        """West, south, east, north, in degrees."""
        lons = [lon for polygon in self.polygons for lon, _ in polygon[0]]
        lats = [lat for polygon in self.polygons for _, lat in polygon[0]]
        return min(lons), min(lats), max(lons), max(lats)


@cache
def countries() -> tuple[Country, ...]:
    """The countries of ``ontology/countries.geojson``, in the file's order; a DataError for a
    file that is not one."""
    path = ontology_file(FILE)
    try:
        features = json.loads(text(path))["features"]
        found = tuple(_country(feature) for feature in features)
    except json.JSONDecodeError as exc:
        raise problem(path, f"not JSON ({exc.msg})", exc.lineno) from None
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise problem(path, f"not GeoJSON countries ({type(exc).__name__}: {exc})") from None
    if not found:
        raise problem(path, "no country in it")
    return found


def _country(feature: dict) -> Country:
    geometry = feature["geometry"]
    polygons = geometry["coordinates"] if geometry["type"] == "MultiPolygon" else [geometry["coordinates"]]
    return Country(feature["properties"]["iso_a3"] or "", feature["properties"]["name"],
                   tuple(tuple(tuple((float(lon), float(lat)) for lon, lat in ring) for ring in polygon)
                         for polygon in polygons))


def simplify(ring: list[tuple[float, float]], decimals: int = DECIMALS, step: float = MIN_STEP) -> Ring:
    """``ring`` rounded, without the points closer than ``step`` to the point kept before them
    (the first is kept, the ring closed again); empty if fewer than three points are left."""
    kept: list[tuple[float, float]] = []
    for lon, lat in ring:
        point = (round(lon, decimals), round(lat, decimals))
        if not kept or (point[0] - kept[-1][0]) ** 2 + (point[1] - kept[-1][1]) ** 2 >= step * step:
            kept.append(point)
    while len(kept) > 1 and (kept[-1] == kept[0] or
                             (kept[-1][0] - kept[0][0]) ** 2 + (kept[-1][1] - kept[0][1]) ** 2 < step * step):
        kept.pop()  # the closing point, and any that crowd the first
    if len(kept) < 3:
        return ()
    return (*kept, kept[0])


def area(ring: Ring) -> float:
    """The ring's signed area in square degrees (the shoelace formula): positive counter-clockwise."""
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in pairwise(ring)) / 2


def _wound(ring: Ring, outer: bool) -> Ring:
    return ring if (area(ring) > 0) == outer else ring[::-1]


def outline(polygons: list[list[list[tuple[float, float]]]]) -> tuple[tuple[Ring, ...], ...]:
    """Polygons (an outer ring and its holes each) simplified and wound as RFC 7946 says; a ring
    that simplifies away is dropped, and a polygon with its outer ring. A country all of whose
    polygons would go keeps its largest outer ring, rounded only."""
    kept = []
    for polygon in polygons:
        outer = simplify(polygon[0])
        if outer:
            holes = (simplify(hole) for hole in polygon[1:])
            kept.append((_wound(outer, True), *(_wound(h, False) for h in holes if h)))
    if not kept:
        largest = max((p[0] for p in polygons), key=lambda r: abs(area(tuple(r))))
        kept.append((_wound(simplify(largest, step=0), True),))
    return tuple(kept)


def generate(shapefile: str | Path, via: str = VIA) -> dict:
    """The GeoJSON of the countries of a Natural Earth admin 0 shapefile (read with pyshp)."""
    try:
        import shapefile as pyshp
    except ImportError:
        raise KGError("python -m kg.graph.countries needs pyshp", hint="pip install pyshp") from None
    path = Path(shapefile)
    reader = pyshp.Reader(str(path))
    features = []
    for shape_record in reader.iterShapeRecords():
        record, geometry = shape_record.record.as_dict(), shape_record.shape.__geo_interface__
        coordinates = geometry["coordinates"]
        polygons = coordinates if geometry["type"] == "MultiPolygon" else [coordinates]
        code = record.get("iso_a3") or record.get("ISO_A3") or ""
        features.append({
            "type": "Feature",
            "properties": {"iso_a3": None if code == "-99" else code, "name": record.get("name") or record["NAME"]},
            "geometry": {"type": "MultiPolygon",
                         "coordinates": [[list(map(list, ring)) for ring in polygon] for polygon in outline(polygons)]},
        })
    features.sort(key=lambda f: f["properties"]["name"])
    metadata = dict(SOURCE, via=via, file=path.name, sha256=hashlib.sha256(path.read_bytes()).hexdigest(),
                    simplified=f"rounded to {DECIMALS} decimals; points closer than {MIN_STEP} degree "
                               "to the point kept before them dropped",
                    command=f"python -m kg.graph.countries {path.name}")
    return {"type": "FeatureCollection", "metadata": metadata, "features": features}


def write(collection: dict, path: str | Path) -> None:
    """The collection as GeoJSON, one feature a line (so that a change shows country by country)."""
    head = {key: value for key, value in collection.items() if key != "features"}
    lines = [json.dumps(feature, ensure_ascii=False, separators=(",", ":")) for feature in collection["features"]]
    body = json.dumps(head, ensure_ascii=False, indent=1)[:-2]  # without the closing "\n}"
    with open(path, "w", encoding="utf-8") as out:
        out.write(body + ',\n "features": [\n' + ",\n".join(lines) + "\n ]\n}\n")


def main(argv: list[str] | None = None) -> None:
    """``python -m kg.graph.countries SHAPEFILE [-o PATH] [--via TEXT]``."""
    parser = argparse.ArgumentParser(prog="python -m kg.graph.countries", description=__doc__.split("\n")[0])
    parser.add_argument("shapefile", help="Natural Earth's ne_110m_admin_0_countries.shp, or geopandas' copy")
    parser.add_argument("-o", "--output", help=f"default: ontology/{FILE} of kg's data folder")
    parser.add_argument("--via", default=VIA, help="where the shapefile came from, for the file's metadata")
    args = parser.parse_args(argv)
    output = args.output or str(ontology_file(FILE))
    try:
        collection = generate(args.shapefile, args.via)
    except KGError as exc:
        sys.exit(f"Error: {exc}")
    write(collection, output)
    print(f"wrote {len(collection['features'])} countries to {output} ({Path(output).stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
