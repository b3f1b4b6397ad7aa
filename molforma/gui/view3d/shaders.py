"""The GLSL programs of the OpenGL canvas: impostor spheres (instanced quads and point
sprites), the interactive level of detail, bond cylinders, and the camera and shading code
they share (``COMMON``, also used by the surfaces). GLSL 3.30 core.
"""

from __future__ import annotations

COMMON = """
uniform mat3 uRot;
uniform vec3 uCentre;
uniform float uScale;
uniform vec2 uPan;
uniform vec2 uViewport;
uniform float uDepth;
vec3 toView(vec3 p) { return uRot * (p - uCentre) * uScale + vec3(uPan, 0.0); }
vec4 toClip(vec3 v) { return vec4(2.0 * v.x / uViewport.x, 2.0 * v.y / uViewport.y, -v.z / uDepth, 1.0); }
vec3 shade(vec3 base, vec3 n) {
    vec3 l = normalize(vec3(-0.35, 0.45, 1.0));
    float diff = max(dot(n, l), 0.0);
    vec3 h = normalize(l + vec3(0.0, 0.0, 1.0));
    // x^32 by squaring: far cheaper than pow() on software rasterisers.
    float spec = max(dot(n, h), 0.0);
    spec *= spec; spec *= spec; spec *= spec; spec *= spec; spec *= spec;
    return base * (0.28 + 0.72 * diff) + vec3(0.45) * spec;
}
"""

SPHERE_VS = (
    "#version 330 core\n"
    + COMMON
    + """
layout(location = 0) in vec2 corner;
layout(location = 1) in vec3 centre;
layout(location = 2) in float radius;
layout(location = 3) in vec4 colour;
layout(location = 4) in float mark;
out vec2 vCorner;
flat out vec4 vColour;  // flat: constant over an atom's quad
flat out float vMark;
flat out vec3 vCentre;
flat out float vRadius;
void main() {
    vec3 c = toView(centre);
    float r = radius * uScale;
    // Room for a ring only around marked atoms: smaller quads cost less fill.
    float EXTENT = mark > 0.5 ? 1.35 : 1.0;
    vCorner = corner * EXTENT;
    vColour = colour;
    vMark = mark;
    vCentre = c;
    vRadius = r;
    gl_Position = toClip(c + vec3(corner * EXTENT * max(r, 1.5), 0.0));
}
"""
)

SPHERE_FS = (
    "#version 330 core\n"
    + COMMON
    + """
in vec2 vCorner;
flat in vec4 vColour;
flat in float vMark;
flat in vec3 vCentre;
flat in float vRadius;
out vec4 fragColour;
void main() {
    float r2 = dot(vCorner, vCorner);
    int m = int(vMark + 0.5);
    if (r2 <= 1.0) {
        float z = sqrt(1.0 - r2);
        vec3 n = vec3(vCorner, z);
        fragColour = vec4(shade(vColour.rgb, n), vColour.a);
        gl_FragDepth = (-(vCentre.z + z * vRadius) / uDepth) * 0.5 + 0.5;
        return;
    }
    float r = sqrt(r2);
    if (m == 0 || r < 1.1 || r > 1.32) discard;
    vec3 ring = (m & 1) != 0 ? vec3(1.0, 0.85, 0.0)
              : ((m & 8) != 0 ? vec3(1.0, 0.25, 0.2)
              : ((m & 4) != 0 ? vec3(0.1, 0.95, 0.55) : vec3(0.85, 0.2, 0.95)));
    fragColour = vec4(ring, 1.0);
    gl_FragDepth = (-(vCentre.z) / uDepth) * 0.5 + 0.5;
}
"""
)

# Point sprites for many small balls: one vertex per atom instead of an instanced quad
# (a software rasteriser sets up one point where a quad is two triangles), shaded and
# depth-corrected like the quads from gl_PointCoord.
POINT_VS = (
    "#version 330 core\n"
    + COMMON
    + """
layout(location = 1) in vec3 centre;
layout(location = 2) in float radius;
layout(location = 3) in vec4 colour;
layout(location = 4) in float mark;
flat out vec4 vColour;  // flat: constant over a point, nothing to interpolate
flat out float vMark;
flat out vec3 vCentre;
flat out float vRadius;
flat out float vExtent;
void main() {
    vec3 c = toView(centre);
    float r = radius * uScale;
    float EXTENT = mark > 0.5 ? 1.35 : 1.0;
    vColour = colour;
    vMark = mark;
    vCentre = c;
    vRadius = r;
    vExtent = EXTENT;
    gl_PointSize = 2.0 * EXTENT * max(r, 1.5);
    gl_Position = toClip(c);
}
"""
)

POINT_FS = SPHERE_FS.replace("in vec2 vCorner;\n", "flat in float vExtent;\n").replace(
    "void main() {\n",
    "void main() {\n    vec2 vCorner = vec2(gl_PointCoord.x * 2.0 - 1.0,"
    " 1.0 - gl_PointCoord.y * 2.0) * vExtent;\n",
    1,
)

# The interactive level of detail (while the camera is dragged): flat round points, the
# colour darkened towards the rim, no per-fragment sphere depth (so the rasteriser's early
# depth test does its work) and no rings: a fraction of the full sprite's work per pixel.
FAST_VS = (
    "#version 330 core\n"
    + COMMON
    + """
layout(location = 1) in vec3 centre;
layout(location = 2) in float radius;
layout(location = 3) in vec4 colour;
layout(location = 4) in float mark;
flat out vec4 vColour;
void main() {
    vec3 c = toView(centre);
    // Marked atoms (selected, fixed, candidate) keep a tint of their ring colour.
    vColour = mark > 0.5 ? vec4(mix(colour.rgb, vec3(1.0, 0.85, 0.0), 0.5), colour.a) : colour;
    gl_PointSize = 2.0 * max(0.8 * radius * uScale, 1.0);
    gl_Position = toClip(c);
}
"""
)

FAST_FS = (
    "#version 330 core\n"
    + """
flat in vec4 vColour;
out vec4 fragColour;
void main() {
    vec2 p = gl_PointCoord * 2.0 - 1.0;
    float r2 = dot(p, p);
    if (r2 > 1.0) discard;
    fragColour = vec4(vColour.rgb * (1.0 - 0.4 * r2), 1.0);
}
"""
)

CYL_VS = (
    "#version 330 core\n"
    + COMMON
    + """
layout(location = 0) in vec2 corner;    // x: 0..1 along the bond, y: -1..1 across it
layout(location = 1) in vec3 pStart;
layout(location = 2) in vec3 pEnd;
layout(location = 3) in float radius;
layout(location = 4) in vec4 colourA;
layout(location = 5) in vec4 colourB;
layout(location = 6) in float split;
out float vAcross;
out float vAlong;
out float vZ;
out float vRadius;
flat out vec2 vPerp;
flat out vec4 vColourA;
flat out vec4 vColourB;
flat out float vSplit;
void main() {
    vec3 a = toView(pStart);
    vec3 b = toView(pEnd);
    vec2 axis = b.xy - a.xy;
    float len = length(axis);
    vec2 dir = len > 1e-4 ? axis / len : vec2(1.0, 0.0);
    vec2 perp = vec2(-dir.y, dir.x);
    float r = max(radius * uScale, 0.75);
    vec3 p = mix(a, b, corner.x);
    p.xy += perp * corner.y * r;
    vAcross = corner.y;
    vAlong = corner.x;
    vZ = p.z;
    vRadius = r;
    vPerp = perp;
    vColourA = colourA;
    vColourB = colourB;
    vSplit = split;
    gl_Position = toClip(p);
}
"""
)

CYL_FS = (
    "#version 330 core\n"
    + COMMON
    + """
in float vAcross;
in float vAlong;
in float vZ;
in float vRadius;
flat in vec2 vPerp;
flat in vec4 vColourA;
flat in vec4 vColourB;
flat in float vSplit;
out vec4 fragColour;
void main() {
    float h = sqrt(max(1.0 - vAcross * vAcross, 0.0));
    vec3 n = normalize(vec3(vPerp * vAcross, h));
    vec4 c = vAlong < vSplit ? vColourA : vColourB;
    fragColour = vec4(shade(c.rgb * 0.85, n), c.a);
    gl_FragDepth = (-(vZ + h * vRadius) / uDepth) * 0.5 + 0.5;
}
"""
)
