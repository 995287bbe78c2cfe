print("hello from the lanes fixture")
