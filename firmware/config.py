"""Pin assignments: the ONE place that names GPIOs (hardware/PINOUT.md must agree; a test checks).

Raspberry Pi Pico (RP2040) GPIO numbers, not physical pin numbers.
"""

I2C_ID = 0
PIN_SDA = 4  # OLED SDA (physical pin 6)
PIN_SCL = 5  # OLED SCL (physical pin 7)
I2C_FREQ = 400_000
OLED_ADDR = 0x3C
OLED_WIDTH = 128
OLED_HEIGHT = 64

PIN_BUZZER = 15  # piezo via PWM (physical pin 20)

PIN_BTN_DONE = 16  # to GND, internal pull-up (physical pin 21)
PIN_BTN_PAUSE = 17  # (physical pin 22)
PIN_BTN_MUTE = 18  # (physical pin 24)

PIN_LEDS = 22  # WS2812 ring data in, via 330 ohm (physical pin 29)
LED_COUNT = 12

PIN_STATUS_LED = 25  # the Pico's own LED: lit while the protocol task runs

# Every GPIO the firmware uses, by role (the pinout test reads this).
PINS = {
    "OLED_SDA": PIN_SDA,
    "OLED_SCL": PIN_SCL,
    "BUZZER": PIN_BUZZER,
    "BTN_DONE": PIN_BTN_DONE,
    "BTN_PAUSE": PIN_BTN_PAUSE,
    "BTN_MUTE": PIN_BTN_MUTE,
    "LED_RING": PIN_LEDS,
}
