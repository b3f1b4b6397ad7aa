"""The few OpenGL enum values the renderer passes to Qt's GL functions (Qt layer).

Values from the OpenGL 3.3 core specification (``GL_`` dropped from the names).
"""

from __future__ import annotations

FALSE = 0
TRUE = 1
POINTS = 0x0000
TRIANGLES = 0x0004
TRIANGLE_STRIP = 0x0005
LESS = 0x0201
SRC_ALPHA = 0x0302
ONE_MINUS_SRC_ALPHA = 0x0303
DEPTH_TEST = 0x0B71
BLEND = 0x0BE2
FLOAT = 0x1406
RENDERER = 0x1F01
DEPTH_BUFFER_BIT = 0x0100
COLOR_BUFFER_BIT = 0x4000
PROGRAM_POINT_SIZE = 0x8642
