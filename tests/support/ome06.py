"""OME-Zarr 0.6rc0 test material shared by the run-time and catalog tests."""

from __future__ import annotations

from typing import Any

VERSION = "0.6rc0"

# The smallest valid image's attributes: one level `0` in a 2-d `physical` coordinate system.
VALID_IMAGE: dict[str, Any] = {
    "ome": {
        "version": VERSION,
        "multiscales": [
            {
                "coordinateSystems": [
                    {
                        "name": "physical",
                        "axes": [{"name": "y", "type": "space"}, {"name": "x", "type": "space"}],
                    }
                ],
                "datasets": [
                    {
                        "path": "0",
                        "coordinateTransformations": [
                            {
                                "type": "scale",
                                "scale": [1, 1],
                                "input": {"path": "0"},
                                "output": {"name": "physical"},
                            }
                        ],
                    }
                ],
            }
        ],
    }
}
