"""SSD1306 OLED over I2C, after micropython-lib's ssd1306.py (MIT): a framebuf.FrameBuffer
whose ``show`` sends the whole 1 KB buffer in one I2C transaction."""

import framebuf
from micropython import const

_SET_CONTRAST = const(0x81)
_SET_ENTIRE_ON = const(0xA4)
_SET_NORM_INV = const(0xA6)
_SET_DISP = const(0xAE)
_SET_MEM_ADDR = const(0x20)
_SET_COL_ADDR = const(0x21)
_SET_PAGE_ADDR = const(0x22)
_SET_DISP_START_LINE = const(0x40)
_SET_SEG_REMAP = const(0xA0)
_SET_MUX_RATIO = const(0xA8)
_SET_COM_OUT_DIR = const(0xC0)
_SET_DISP_OFFSET = const(0xD3)
_SET_COM_PIN_CFG = const(0xDA)
_SET_DISP_CLK_DIV = const(0xD5)
_SET_PRECHARGE = const(0xD9)
_SET_VCOM_DESEL = const(0xDB)
_SET_CHARGE_PUMP = const(0x8D)


class SSD1306_I2C(framebuf.FrameBuffer):
    def __init__(self, width: int, height: int, i2c: object, addr: int = 0x3C) -> None:
        self.width = width
        self.height = height
        self.pages = height // 8
        self.buffer = bytearray(self.pages * width)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self.i2c = i2c
        self.addr = addr
        self.temp = bytearray(2)
        self.write_list = [b"\x40", self.buffer]  # Co=0, D/C#=1: the rest is display data
        self.init_display()

    def init_display(self) -> None:
        for cmd in (
            _SET_DISP,  # off
            _SET_MEM_ADDR,
            0x00,  # horizontal addressing
            _SET_DISP_START_LINE,
            _SET_SEG_REMAP | 0x01,  # column 127 is SEG0
            _SET_MUX_RATIO,
            self.height - 1,
            _SET_COM_OUT_DIR | 0x08,  # scan from COM[N] to COM0
            _SET_DISP_OFFSET,
            0x00,
            _SET_COM_PIN_CFG,
            0x02 if self.width > 2 * self.height else 0x12,
            _SET_DISP_CLK_DIV,
            0x80,
            _SET_PRECHARGE,
            0xF1,  # internal charge pump
            _SET_VCOM_DESEL,
            0x30,
            _SET_CONTRAST,
            0xFF,
            _SET_ENTIRE_ON,  # output follows RAM
            _SET_NORM_INV,  # not inverted
            _SET_CHARGE_PUMP,
            0x14,
            _SET_DISP | 0x01,  # on
        ):
            self.write_cmd(cmd)
        self.fill(0)
        self.show()

    def write_cmd(self, cmd: int) -> None:
        self.temp[0] = 0x80  # Co=1, D/C#=0
        self.temp[1] = cmd
        self.i2c.writeto(self.addr, self.temp)  # type: ignore[attr-defined]

    def contrast(self, value: int) -> None:
        self.write_cmd(_SET_CONTRAST)
        self.write_cmd(value)

    def poweroff(self) -> None:
        self.write_cmd(_SET_DISP)

    def show(self) -> None:
        for cmd in (_SET_COL_ADDR, 0, self.width - 1, _SET_PAGE_ADDR, 0, self.pages - 1):
            self.write_cmd(cmd)
        self.i2c.writevto(self.addr, self.write_list)  # type: ignore[attr-defined]
