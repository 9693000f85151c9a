print("cast-bench")
