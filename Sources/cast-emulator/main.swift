print("cast-emulator")
