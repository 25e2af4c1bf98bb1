"""yopyra: a small ray tracer (spheres, planes, lights, reflection and
refraction, oversampling) that renders a scene description to PPM.

Source: shedskin/shedskin, examples/yopyra/yopyra.py (scene from
examples/yopyra/scene.txt).
Licence: GPL v2 or later (stated in the file; Carlos Gonzalez Morcillo,
2004-2006).

Changes made for rpy3:
- no file I/O: scene.txt is embedded as the string `SCENE_TXT`;
  `Scene.__init__` takes the lines from the dict `FILES`
  (`FILES[scene_filename].splitlines()`, was `open(scene_filename)`);
  entry_point stores the scene there with its 'size 320 240' line
  replaced by the width and height from argv;
- the PPM image is printed to stdout (the `print(..., file=fileout)`
  calls lost `file=fileout`; `open(...".ppm", "w")` and
  `fileout.close()` dropped);
- the `__main__` loop (10 renders, the second half timed, and the TIME
  line) became `entry_point(argv)`, which renders once; `import time`
  dropped.
"""

# rpy3-args: 4 3
# rpy3-args: 8 6
#
### to change the scene/resolution, edit scene.txt
#
# GPL Notice:
#
# This program is free software; you can redistribute it and/or modify it under
# the terms of the GNU General Public License as published by the Free Software
# Foundation; either version 2 of the License, or any later version.
#
# This program is distributed in the hope that it will be useful, but WITHOUT
# ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS
# FOR A PARTICULAR PURPOSE. See the GNU Library General Public License for details.
#
# You should have received a copy of the GNU General Public License along with
# this program; if not, write to the Free Software Foundation, Inc., 59 Temple
# Place - Suite 330, Boston, MA 02111-1307, USA.
#
# Name:        YOPyRa (Yeah!, One Python Raytracer)
# Copyright:   Carlos Gonzalez Morcillo 2004, 2005, 2006
# Email:       carlos@morcy.org - Carlos.Gonzalez@uclm.es
# http://www.boxel.info/morcy/static.php?page=yopyra

from math import *

MAX_DIST = 1999999999 # 9999999999
PI_SOBRE_180 = 0.017453292
PEQUENO = 0.000000001

class vector:
    def __init__(self, vx=0.0, vy=0.0, vz=0.0):
        self.x, self.y, self.z = vx, vy, vz
#     def set(self, vx, vy, vz):
#         self.x, self.y, self.z = vx, vy, vz

    def pEscalar(self, vv):
        return (self.x * vv.x + self.y * vv.y + self.z * vv.z)
    def pVectorial(self, vv):
        r = vector()
        r.x = vv.y*self.z - vv.z*self.y
        r.y = vv.z*self.x - vv.x*self.z
        r.z = vv.x*self.y - vv.y*self.x
        return r
    def modulo(self):
        return sqrt(self.x*self.x + self.y*self.y + self.z*self.z)
    def normalizar(self):
        m = self.modulo()
        if m != 0.0:
            self.x /= m;  self.y /= m; self.z /= m
        return self

    def __add__(self, other):
        return vector(self.x+other.x, self.y+other.y, self.z+other.z)
    def __sub__(self, other):
        return vector(self.x-other.x, self.y-other.y, self.z-other.z)
    def __mul__(self, other):
        return vector(self.x*other, self.y*other, self.z*other)
#     def __idiv__(self, other):
#         return vector(self.x / float(other), self.y / float(other), self.z / float(other))
#     def __iadd__(self, other):
#         return vector(self.x + other.x, self.y + other.y, self.z + other.z)
#     def __repr__(self):
#         return "<V: %.2f %.2f %.2f>" % (self.x, self.y, self.z) # for debugging


class luz:
    def __init__(self, posicion, color, tipo):
        self.posicion = posicion
        self.color = color
        self.tipo = tipo
#     def __repr__(self):
#         return "<L: %s %s %s>" % (self.posicion, self.color, self.tipo) # for debugging


class color:
    def __init__(self, vr=0.0, vg=0.0, vb=0.0):
        self.r, self.g, self.b = vr, vg, vb

    def __add__(self, other):
        return color(self.r+other.r, self.g+other.g, self.b+other.b)
#     def __iadd__(self, other):
#         return color(self.r+other.r, self.g+other.g, self.b+other.b)
    def __mul__(self, other):
        return color(self.r*other, self.g*other, self.b*other)
#     def __imul__(self, other):
#         return color(self.r*other, self.y*other, self.z*other)
    def __str__(self):
        return "%d %d %d" % (max(0.0, min(self.r*255.0, 255.0)),
                             max(0.0, min(self.g*255.0, 255.0)),
                             max(0.0, min(self.b*255.0, 255.0)))
#     def __repr__(self):
#         return "<C: %.2f %.2f %.2f>" % (self.r, self.g, self.b) # for debugging


class material:
    def __init__(self, color, cDifuso=0.0, cEspecular=0.0, dEspecular=0.0,
                 cReflexion=0.0, cTransmitividad=0.0, iRefraccion=0.0):
        self.color = color
        self.cDifuso = cDifuso
        self.cEspecular = cEspecular
        self.dEspecular = dEspecular
        self.cReflexion = cReflexion
        self.cTransmitividad = cTransmitividad
        self.iRefraccion = iRefraccion
#     def __repr__(self): # for debugging
#         return "<M: %r %.2f %.2f %.2f %.2f %.2f %.2f>" %  (
#             self.color, self.cDifuso, self.cEspecular, self.dEspecular,
#             self.cReflexion, self.cTransmitividad, self.iRefraccion)


class cuerpo:
    def __init__(self, tipo, material):
        self.tipo = tipo
        self.material = material


class esfera(cuerpo):
    def __init__(self, material, posicion, radio):
        cuerpo.__init__(self, 'esfera', material)
        self.posicion = posicion
        self.radio = radio

    def intersecta(self, r):
        esfera_rayo = self.posicion - r.origen
        v = esfera_rayo.pEscalar(r.direccion)

        if v - self.radio > r.disInter: return False
        distChoque = self.radio*self.radio + v*v - esfera_rayo.x*esfera_rayo.x - \
                     esfera_rayo.y*esfera_rayo.y - esfera_rayo.z*esfera_rayo.z
        if distChoque < 0.0: return False

        distChoque = v - sqrt(distChoque)
        if distChoque > r.disInter or distChoque < 0.0: return False

        r.disInter = distChoque
        r.objInter = self
        return True

    def getNormal(self, punto):
        normal = punto - self.posicion
        return normal.normalizar()

#     def __repr__(self): # for debugging
#         return "<S: %d %s %.2f>" % (self.material, self.posicion, self.radio)


class plano(cuerpo):
    def __init__(self, material, normal, distancia):
        cuerpo.__init__(self, 'plano', material)
        self.normal = normal
        self.normal.normalizar()
        self.distancia = distancia

    def intersecta(self, r):
        v = self.normal.pEscalar(r.direccion)
        if v == 0.0: return False

        distChoque = -(self.normal.pEscalar(r.origen) + self.distancia) / v
        if distChoque < 0.0: return False             # Direccion del rayo negativa
        if distChoque > r.disInter: return False  # No es el mas cercano

        r.disInter = distChoque
        r.objInter = self
        return True

    def getNormal(self, punto):
        return self.normal

#     def __repr__(self): # for debugging
#         return "<P: %d %s %.2f>" % (self.material, self.normal, self.distancia)


class rayo:
    def __init__(self, origen, direccion):
        self.origen = origen
        self.direccion = direccion
        self.disInter = MAX_DIST
        self.objInter = None


class Scene:
    def __init__(self, scene_filename):
        lines = [l.split() for l in FILES[scene_filename].splitlines() if l.strip() and l.strip()[0] != "#"]
        self.lObjetos = []
        self.lLuces = []
        self.lMateriales = []

        # defaults
        self.imgAncho = 320
        self.imgAlto = 200

        self.profTrazado = 3 # bounces
        self.oversampling = 1  # 1 implica que no hay oversampling
        self.campoVision = 60

        self.startline = 0 # Start rendering line
        self.endline = self.imgAlto - 1 # End rendering line

        for line in lines:
            word = line[0]
            line = line[1:]

            if word == "size":
                self.imgAncho = int(line[0])
                self.imgAlto = int(line[1])
                self.endline = self.imgAlto - 1 # End rendering line
            elif word == "nbounces":
                self.profTrazado = int(line[0]) # n. bounces
            elif word == "oversampling":
                self.oversampling = int(line[0])
            elif word == "vision":
                self.campoVision = float(line[0])
            elif word == "renderslice":
                self.startline = max(0, int(line[0])) # Start rendering line
                self.endline = min(self.imgAlto-1, int(line[1])) # End rendering line

            elif word == "posCamara":
                self.posCamara = self.parse_vector(line)
            elif word == "lookCamara":
                self.lookCamara = self.parse_vector(line)
            elif word == "upCamara":
                self.upCamara = self.parse_vector(line)

            elif word == "sphere":
                sph = esfera( int(line[0]), self.parse_vector(line[1:4]), float(line[-1]) )
                self.lObjetos.append(sph)

            elif word == "plano":
                pl = plano( int(line[0]), self.parse_vector(line[1:4]), float(line[-1]) )
                self.lObjetos.append(pl)

            elif word == "light":
                light = luz(self.parse_vector(line[0:3]), self.parse_color(line[3:6]), line[-1])
                self.lLuces.append(light)

            elif word == "material":
                mat = self.parse_material(line)
                self.lMateriales.append(mat)

        # iniciamos el raytracer -------------------------------
        self.anchoGrid = self.imgAncho * self.oversampling
        self.altoGrid = self.imgAlto * self.oversampling

        self.look = self.lookCamara - self.posCamara
        self.Vhor = self.look.pVectorial(self.upCamara)
        self.Vhor.normalizar()

        self.Vver = self.look.pVectorial(self.Vhor)
        self.Vver.normalizar()

        fl = self.anchoGrid / (2 * tan((0.5 * self.campoVision) * PI_SOBRE_180))

        Vp = self.look
        Vp.normalizar()
        Vp.x = Vp.x * fl - 0.5 * (self.anchoGrid * self.Vhor.x + self.altoGrid * self.Vver.x)
        Vp.y = Vp.y * fl - 0.5 * (self.anchoGrid * self.Vhor.y + self.altoGrid * self.Vver.y)
        Vp.z = Vp.z * fl - 0.5 * (self.anchoGrid * self.Vhor.z + self.altoGrid * self.Vver.z)
        self.Vp = Vp

    # Auxiliary methods
    def parse_vector(self, line):
        return vector(float(line[0]), float(line[1]), float(line[2]))
    def parse_color(self, line):
        return color(float(line[0]), float(line[1]), float(line[2]))
    def parse_material(self, line):
        f = [float(x) for x in line[3:]]
        return material(self.parse_color(line[0:3]), f[0], f[1], f[2], f[3], f[4], f[5])


# ----------------- Calcula la sombra de un rayo ------------
def calculaSombra(r, objChoque):
    sombra = 1.0   # Incialmente no hay sombra
    for obj in scene.lObjetos:
        r.objInter = None
        r.disInter = MAX_DIST

        if obj.intersecta(r) and obj != objChoque:
            sombra *= scene.lMateriales[obj.material].cTransmitividad

    return sombra


def trazar(r, prof):
    c = color()

    for obj in scene.lObjetos:    # Probamos con todos los objetos
        obj.intersecta(r)

    if r.objInter != None:
        matIndex = r.objInter.material
        pInterseccion = r.origen + r.direccion * r.disInter
        vIncidente = pInterseccion - r.origen
        vVueltaOrigen = r.direccion * -1.0
        vVueltaOrigen.normalizar()
        vNormal = r.objInter.getNormal(pInterseccion)
        for luz in scene.lLuces:
            if luz.tipo == 'ambiental':
                c += luz.color
            elif luz.tipo == 'puntual':
                dirLuz = luz.posicion - pInterseccion
                dirLuz.normalizar()
                rayoLuz = rayo(pInterseccion, dirLuz)
                sombra = calculaSombra(rayoLuz, r.objInter)
                NL = vNormal.pEscalar(dirLuz)
                if NL > 0.0:
                    if scene.lMateriales[matIndex].cDifuso > 0.0:  # ------- Difuso
                        colorDifuso = luz.color * scene.lMateriales[matIndex].cDifuso * NL
                        colorDifuso.r *= scene.lMateriales[matIndex].color.r * sombra
                        colorDifuso.g *= scene.lMateriales[matIndex].color.g * sombra
                        colorDifuso.b *= scene.lMateriales[matIndex].color.b * sombra
                        c += colorDifuso
                    if scene.lMateriales[matIndex].cEspecular > 0.0: # ----- Especular
                        R = (vNormal * 2 * NL) - dirLuz
                        espec = vVueltaOrigen.pEscalar(R)
                        if espec > 0.0:
                            espec = scene.lMateriales[matIndex].cEspecular * \
                                    pow(espec, scene.lMateriales[matIndex].dEspecular)
                            colorEspecular = luz.color * espec * sombra
                            c += colorEspecular
        if prof < scene.profTrazado:
            if scene.lMateriales[matIndex].cReflexion > 0.0:   # -------- Reflexion
                T = vVueltaOrigen.pEscalar(vNormal)
                if T > 0.0:
                    vDirRef = (vNormal * 2 * T) - vVueltaOrigen
                    vOffsetInter = pInterseccion + vDirRef * PEQUENO
                    rayoRef = rayo(vOffsetInter, vDirRef)
                    c += trazar (rayoRef, prof+1.0) * scene.lMateriales[matIndex].cReflexion
            if scene.lMateriales[matIndex].cTransmitividad > 0.0:  # ---- Refraccion
                RN = vNormal.pEscalar(vIncidente * -1.0)
                vIncidente.normalizar()
                if vNormal.pEscalar(vIncidente) > 0.0:
                    vNormal = vNormal * -1.0
                    RN = -RN
                    n1 = scene.lMateriales[matIndex].iRefraccion
                    n2 = 1.0
                else:
                    n2 = scene.lMateriales[matIndex].iRefraccion
                    n1 = 1.0
                if n1 != 0.0 and n2 != 0.0:
                    par_sqrt = sqrt(1 - (n1*n1/n2*n2)*(1-RN*RN))
                    vDirRefrac = vIncidente + (vNormal * RN) * (n1/n2) - (vNormal * par_sqrt)
                    vOffsetInter = pInterseccion + vDirRefrac * PEQUENO
                    rayoRefrac = rayo(vOffsetInter, vDirRefrac)
                    c += trazar(rayoRefrac, prof+1.0) * scene.lMateriales[matIndex].cTransmitividad
    return c

def renderPixel(x, y):
    c = color()
    x *= scene.oversampling
    y *= scene.oversampling

    for i in range(scene.oversampling):
        for j in range(scene.oversampling):
            direc = vector()
            direc.x = x * scene.Vhor.x + y * scene.Vver.x + scene.Vp.x
            direc.y = x * scene.Vhor.y + y * scene.Vver.y + scene.Vp.y
            direc.z = x * scene.Vhor.z + y * scene.Vver.z + scene.Vp.z
            direc.normalizar()
            r = rayo(scene.posCamara, direc)

            c += trazar(r, 1.0)
            y += 1
        x += 1
    srq_oversampling = scene.oversampling * scene.oversampling
    c.r /= srq_oversampling
    c.g /= srq_oversampling
    c.b /= srq_oversampling
    return c


def main():
    global scene

    scene_namefile = "scene.txt" #if len(sys.argv)<2 else sys.argv[1]) #python 2.5
    scene = Scene(scene_namefile)
    print("Rendering:", scene_namefile)

    print("P3")
    print(scene.imgAncho, scene.endline - scene.startline + 1)
    print("255")

    print("Line (from %d to %d):" % (scene.startline, scene.endline), end=' ')
    for y in range(scene.startline, scene.endline+1):
        for x in range(scene.imgAncho):
            print(renderPixel(x, y), end=' ')
        print()
        print(y, end=' ')
    print()


SCENE_TXT = """\
# scene descripting for yopyraSS.py

# (optional, default 320 240) size = size of the final image
size 320 240

nbounces 5

# (optional, default 1) oversampling=1 implica que no hay oversampling
oversampling 2

# (optional, default 60) vision = size of the visual field
vision 60

# (optional, default all span) renderslice: start_rendering_line end_rendering_line
# renderslice note: if you use oversampling>1 it may give problems
#renderslice 10 40

posCamara 6.0 6.0 6.0
lookCamara 1.0 0.8 -0.1
upCamara 0.0 0.0 1.0

# sphere: material_number x y z radius
sphere 0 -8 2.26163 0.993114  0.35
sphere 2 -8 0.73837 3.00689  0.35
sphere 0 -7.6 1.60521 0.803393  0.35
sphere 2 -7.6 1.39479 3.19661  0.35
sphere 0 -7.2 0.923034 0.906644  0.35
sphere 2 -7.2 2.07697 3.09336  0.35
sphere 0 -6.8 0.382118 1.27759  0.35
sphere 2 -6.8 2.61788 2.72241  0.35
sphere 0 -6.4 0.114898 1.8254  0.35
sphere 2 -6.4 2.8851 2.1746  0.35
sphere 0 -6 0.1868 2.41596  0.35
sphere 2 -6 2.8132 1.58404  0.35
sphere 0 -5.6 0.580219 2.90468  0.35
sphere 2 -5.6 2.41978 1.09532  0.35
sphere 0 -5.2 1.19883 3.17191  0.35
sphere 2 -5.2 1.80117 0.828095  0.35
sphere 0 -4.8 1.89118 3.1522  0.35
sphere 2 -4.8 1.10882 0.847796  0.35
sphere 0 -4.4 2.48776 2.8504  0.35
sphere 2 -4.4 0.512244 1.1496  0.35
sphere 0 -4 2.84249 2.34039  0.35
sphere 2 -4 0.157506 1.65961  0.35
sphere 0 -3.6 2.86854 1.74705  0.35
sphere 2 -3.6 0.131458 2.25295  0.35
sphere 0 -3.2 2.55952 1.21563  0.35
sphere 2 -3.2 0.440477 2.78437  0.35
sphere 0 -2.8 1.9911 0.876252  0.35
sphere 2 -2.8 1.0089 3.12375  0.35
sphere 0 -2.4 1.30243 0.812009  0.35
sphere 2 -2.4 1.69757 3.18799  0.35
sphere 0 -2 0.662139 1.03863  0.35
sphere 2 -2 2.33786 2.96137  0.35
sphere 0 -1.6 0.226984 1.50062  0.35
sphere 2 -1.6 2.77302 2.49938  0.35
sphere 0 -1.2 0.103507 2.08488  0.35
sphere 2 -1.2 2.89649 1.91512  0.35
sphere 0 -0.8 0.321941 2.64836  0.35
sphere 2 -0.8 2.67806 1.35164  0.35
sphere 0 -0.4 0.828804 3.0531  0.35
sphere 2 -0.4 2.1712 0.946901  0.35
sphere 0 0 1.5 3.2  0.35
sphere 2 0 1.5 0.8  0.35
sphere 0 0.4 2.1712 3.0531  0.35
sphere 2 0.4 0.828804 0.946901  0.35
sphere 0 0.8 2.67806 2.64836  0.35
sphere 2 0.8 0.321941 1.35164  0.35
sphere 0 1.2 2.89649 2.08488  0.35
sphere 2 1.2 0.103507 1.91512  0.35
sphere 0 1.6 2.77302 1.50062  0.35
sphere 2 1.6 0.226984 2.49938  0.35
sphere 0 2 2.33786 1.03863  0.35
sphere 2 2 0.662139 2.96137  0.35
sphere 0 2.4 1.69757 0.812009  0.35
sphere 2 2.4 1.30243 3.18799  0.35
sphere 0 2.8 1.0089 0.876252  0.35
sphere 2 2.8 1.9911 3.12375  0.35
sphere 0 3.2 0.440477 1.21563  0.35
sphere 2 3.2 2.55952 2.78437  0.35
sphere 0 3.6 0.131458 1.74705  0.35
sphere 2 3.6 2.86854 2.25295  0.35
sphere 0 4 0.157506 2.34039  0.35
sphere 2 4 2.84249 1.65961  0.35
sphere 0 4.4 0.512244 2.8504  0.35
sphere 2 4.4 2.48776 1.1496  0.35
sphere 0 4.8 1.10882 3.1522  0.35
sphere 2 4.8 1.89118 0.847796  0.35
sphere 0 5.2 1.80117 3.17191  0.35
sphere 2 5.2 1.19883 0.828095  0.35
sphere 0 5.6 2.41978 2.90468  0.35
sphere 2 5.6 0.580219 1.09532  0.35
sphere 0 6 2.8132 2.41596  0.35
sphere 2 6 0.1868 1.58404  0.35
sphere 0 6.4 2.8851 1.8254  0.35
sphere 2 6.4 0.114898 2.1746  0.35
sphere 0 6.8 2.61788 1.27759  0.35
sphere 2 6.8 0.382118 2.72241  0.35
sphere 0 7.2 2.07697 0.906644  0.35
sphere 2 7.2 0.923034 3.09336  0.35
sphere 0 7.6 1.39479 0.803393  0.35
sphere 2 7.6 1.60521 3.19661  0.35

# plano: material normal_x normal_y normal_z distancia:
plano 1  0.0 0.0 1.0  0.0

# light: x y z  r g b  puntual/ambiental   (rgb are in [0,1])
light -2.0 1.0 4.0  1.0 1.0 1.0 puntual
light -2.0 1.0 4.0  0.1 0.1 0.1  ambiental

# material: r g b cDifuso cEspecular dEspecular cReflexion cTransmitividad iRefraccion
material 0.3 0.3 1.0   0.7 0.4 0.8 0.3 0.0 0.0
material 0.4 1.0 1.0   0.2 0.0 0.0 0.2 0.0 0.0
material 1.0 0.2 0.2   0.9 0.7 1.0 0.2 0.0 0.0
material 0.2 1.0 0.2   0.4 0.4 0.9 0.7 0.3 0.9
"""

FILES = {}


def entry_point(argv):
    FILES["scene.txt"] = SCENE_TXT.replace("size 320 240", "size %d %d" % (int(argv[1]), int(argv[2])))
    main()
    return 0


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    import sys
    sys.exit(entry_point(sys.argv))
