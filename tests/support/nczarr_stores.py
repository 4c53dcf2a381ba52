"""NCZarr stores as netCDF4-python (over the netCDF-C library) writes them, and the changes
another tool (zarr-python) may make to one afterwards: for the NCZarr convention's tests
(tests/runtime/conventions/nczarr.json; test_rules_nczarr.py, the page's test_site_rules.py)."""

from __future__ import annotations

from pathlib import Path

import netCDF4
import numpy as np
import zarr


def write_netcdf(path: Path) -> None:
    """A dataset as a netCDF user writes one: an unlimited and a fixed dimension at the root, a
    dimension declared two groups down, arrays that use dimensions of their own group and of
    the root, a scalar, and text, numeric and string-list attributes."""
    ds = netCDF4.Dataset(f"file://{path}#mode=nczarr,file", "w")
    ds.createDimension("time", None)
    ds.createDimension("lat", 3)
    ds.title = "rules in CEL"
    temperature = ds.createVariable("t", "f8", ("time", "lat"))
    temperature.units = "K"
    temperature.valid_range = np.array([150.0, 350.0])
    temperature[0:4, :] = np.full((4, 3), 280.0)
    counts = ds.createVariable("n", "i2", ("time",))
    counts.flag = np.int8(3)
    counts.names = ["a", "bb"]
    ds.createVariable("s", "i4", ()).assignValue(7)
    levels = ds.createGroup("forecast").createGroup("member1")
    levels.createDimension("lev", 2)
    pressure = levels.createVariable("p", "f4", ("lev", "lat"))
    pressure.long_name = "pressure"
    pressure[:] = np.ones((2, 3))
    ds.close()


def attribute_without_type(root: zarr.Group) -> None:
    root["t"].attrs["comment"] = "added by another tool"


def text_attribute_made_a_number(root: zarr.Group) -> None:
    root["t"].attrs["units"] = 273


def axis_resized(root: zarr.Group) -> None:
    root["forecast/member1/p"].resize((2, 5))


def dimension_dropped(root: zarr.Group) -> None:
    group = root["forecast/member1"]
    declared = dict(group.attrs["_nczarr_group"])
    declared["dimensions"] = {}
    group.attrs["_nczarr_group"] = declared


def dimension_renamed_for_xarray(root: zarr.Group) -> None:
    root["t"].attrs["_ARRAY_DIMENSIONS"] = ["time", "latitude"]


def array_added(root: zarr.Group) -> None:
    extra = root["forecast"].create_array("extra", shape=(3,), dtype="int8")
    extra.attrs.update(
        {
            "_nczarr_array": {"dimension_references": ["/lat"]},
            "_nczarr_attr": {"types": {"_nczarr_array": "|J0", "_nczarr_attr": "|J0"}},
        }
    )


def scalar_given_an_axis(root: zarr.Group) -> None:
    root["s"].resize((2,))


def reference_dropped(root: zarr.Group) -> None:
    array = dict(root["t"].attrs["_nczarr_array"])
    array["dimension_references"] = ["/time"]
    root["t"].attrs["_nczarr_array"] = array
