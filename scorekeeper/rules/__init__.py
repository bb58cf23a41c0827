"""The rules of Biriba, Burraco and Barbu: plain Python, no Django, no I/O, no clock.

Values in, results out. The site and the commands translate to and from these values.
"""
