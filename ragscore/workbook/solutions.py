"""The worked solutions of the workbook's exercises, shown by
:func:`ragscore.workbook.exercises.solution` after a first attempt.

Each is the instructor notes' row for the exercise (``docs/instructor.md``, "Answers": the
answer and the reasoning that reaches it, with the likely slips), stored scrambled: XORed
with a SHA-256 key stream of the exercise's ID and salt, then base64. That keeps a solution
out of any listing, repr or search of the package; it is not a secret from a learner who
sets out to read it (nor is the answer a salted hash of two decimals guards). Written by
``python tools/build_solutions.py`` from the notes; a test holds the two equal.
"""
import base64
import hashlib

_PEPPER = "ragscore-workbook-v1:solution"


def _key(exercise, length):
    blocks, counter = [], 0
    while sum(map(len, blocks)) < length:
        seed = f"{_PEPPER}:{exercise.id}:{exercise.salt}:{counter}".encode("utf-8")
        blocks.append(hashlib.sha256(seed).digest())
        counter += 1
    return b"".join(blocks)[:length]


def scramble(exercise, text):
    """``text`` scrambled for ``exercise`` (its ``id`` and ``salt``), as base64 text.

    >>> from collections import namedtuple
    >>> one = namedtuple("One", "id salt")("00.0", "abc")
    >>> unscramble(one, scramble(one, "the answer is 1/2."))
    'the answer is 1/2.'
    """
    data = text.encode("utf-8")
    return base64.b64encode(bytes(a ^ b for a, b in zip(data, _key(exercise, len(data))))
                            ).decode("ascii")


def unscramble(exercise, stored):
    """The text :func:`scramble` turned into ``stored``."""
    data = base64.b64decode(stored)
    return bytes(a ^ b for a, b in zip(data, _key(exercise, len(data)))).decode("utf-8")


def worked(exercise):
    """The worked solution of ``exercise``: its answer, then the reasoning."""
    return unscramble(exercise, SCRAMBLED[exercise.id])


# The block below is written by tools/build_solutions.py: edit docs/instructor.md instead.
# --- scrambled solutions ---
SCRAMBLED = {
    "01.1": ("Tih1HBMpsl9OKc09Ta0ZKiSn8557d2KfpIfZoPaTaUIqGIAwu1nryTrZxaOD6bpuA4k13yo6AGxEIFXe"
             "g8cutDxwNgVVz9NgWPGBOYNTg6+oDUSeSmvi/V9lb05pzUdoFUMzubnZ54OXnjKMKZvL3SZtIN5VcAVx"
             "zr3hQa6ZbYFo4cwbSMzVyiKwNL/PYbJMU0ssepGK3RK0mBWqgHamhYjmwRhmK7KO"),
    "01.2": ("1FN4Cc2hOmU9L75OYO0ttd+Efl/6SbgKPEOt2h7dU6PExmQpsxgU/jSiBIu4z4dyzpQpKSLGCKQoBiDe"
             "B1Cvt3m6ltdvZEDIIbxTU1UAujAsjWagLwjDQphGrEedRkV+Dc9LRADQmhzVFSWh5TDJUeAXOKB6Ug9L"
             "NERLt709WhRpIniYgw5O1No4DmtxcxTi8NB6gytDQY8M9LY2KPI0xz4cwrIZRIlELkzh1M7gBYFoXvXm"
             "/vG6v4Z9tFP2icmVHw=="),
    "01.3": ("lXT2nGUuIaGbHIldc+ypypByD4ZsREuh2H22eyfz08WSUgF9CcdPuRymRE6Yni1lDBtR5U2EM94klDX+"
             "agpq1O2DFkQb6uIY62C6+xVG6dHvUod29MkwK9N3vwWjRczBt3YtfWgI//Is0UUrJXuyc1S4ITwhAl5R"
             "+dd6YLMwPKqp4ddoXJhdXItyAa6eWdEdLxmuMo2LhmOLQuURAboHgBwn+UL7i/9HLkjse5dn1CUw9RBI"
             "glHeRkkytNST8G6Ia5zl/05DkzCTHLinKUh28D2BiCx3g6WyEU2wrOSJd3XRzm2n93Hif5Mlf+gseIaw"
             "Q68QyOYpLur7p3R3uJAP24Gkfnsd6JKix7BowSnK4cabxGHDt/JSc3+tImj5LRs70vLpADm1b9NKas89"
             "qHHLZT4gDzwR9Ha4s9FSkY7MICBWyp/1q6DIpiuhPYPXX1g4qfqmi0++iql9QJNbA4LLcu3lwagQ7aNh"
             "yV1la0IQYgg/tYqB4MzM9zf2iBdvVfzxn294PJKSGJOSA+H98dAOXBL36Q5UdgFhT7XyjUbIj1uzULDO"
             "rZZZINV1CBp+hrM="),
    "02.1": ("cLKzNtrA4h7ayMQwanbDCfiXeGu3iusc5r/A+AZ5tTMnf4Abaj+6iO55+YX+RvPiu3KWkA0mF+Kzs7pR"
             "OMNnyT0JRtsJjpy3933v/70DWQrkSKWU83F+BjioJQ4ppCEJPLgJ58rbkKkgMEqrFmLPdrP6WEBYnVnI"
             "FXoJhS+duuAuMx1BV0ItvwHPIjA73gTvdst15UQuWn+ZDFWEEqQjSWV6Fdn7/A/ma6BbzmHyJgwBZcB9"
             "cTv2U3iuQUUQ6eu81RyASZfvGbPFrJ3WAlD63yWZ"),
    "02.2": ("eQBZUl0IUrkjFUgGmq8Qg9/rpzc6j9L5GLXY9a5ldiNDlvUMoDUnbsB2cWVwApaFpoaeYxRIHHH0qyba"
             "9qNMZ8TE91sEG48VSVdgzEUFvu/A9rBIGmouYojoqJmVYEH1IOAQ2JAAvqaVvUI3In3yOZ8Ol7gIS5Zy"
             "YC0sef7AdOjlrskGTMpqe6DCjcsIT/242JHFxqm8w064Yezr1tkNYL+Y01+A/G6+/D4sLRRWcwKRVO3g"
             "ECqbsemZNpnL88oKR9UWBI+7OsPmph5T1itIXNejGnXpYmzC7UaESMyJKDD3jjbwOYWMrqO8TX8RvTYS"
             "Bnxc4jbz4oSuKLPj7zvjLnEEt+h/N4CutSp54kz1F0E2L5zZODaXtoLQ49s="),
    "02.3": ("y8bhBwyyMmb6+sCFds1KwllZuA3Jri0/ToA/S48gEJmz4Gshu88IXA525C9xoIb3FUyxXZBBRo3/1pLU"
             "fP268N7k54/rSkR/v7Wd2Z0ov1YxNSojTbIC+vXmvNTKWn9oFR/XNHKYrPu0SQdeBNiRObMYhvOzUnue"
             "2FZuQew6YP/MxNkSKwnNRldtpO7m9IGnrXXEwp88N3h/k6dTic++PdqDKUjfUGzOWik55CDmX7WrxnYB"
             "iVY="),
    "03.1": ("pZtpoYw3J3R+sepDPKHoOKsRjoCa73k7kjmdF9f/2m6TnUkmpJD7xdcgvEP7WP3QImu2fKcKBE+NlgGq"
             "HqYH2hj6Z0q3caUigCwdp2jxFRZwTj3xceeyTWyTn9oBcn+geengtnBfxXcSk/gaHXdy45kXJO2N+nfS"
             "PngAgSelmqXymQakltRAZSQ09h5tKhLtYncpWKEVwJhzyzzttBoJ7Q5KeVOdlpqwxpJlhKqqyvYKs88G"
             "cV23b1FHkmkBXc+Dr5lpSIp7HMZIDbA8xCukkO3+qMIWcl/gjoimk7S5wP0NSGrFuw=="),
    "03.2": ("oHH1EGdYDMyFJ8DAO/wih0o+YLTZ3FVra37n8C202m+JF5z0rjwNTKKUfz+lmsCPneoopUqK4rWktCfV"
             "7KaqJm1Bx8CVy6GuCEq20PCUDFxmlqNpTV0jvF747nDLOU/imfQuXCyL1CeGc7f6HZh86Zyj2g2PlvNs"
             "0EO8RndvrZXy21y0dT7ZhtF82pLnc0oXlxjhet+OCUKMqSWSXwvMPJmb8qZThGGqXYgikq2B8fCc2QYV"
             "hVOphw=="),
    "03.3": ("/b8bR/0kppSmofsxXbrYzwijncNv6jJSckJlTy9pGUez6O+5Ocvwu3td9jF9/DV/jJ5hpRDzJ7zhots1"
             "MwwqTaMCf9KhR8liD3qNomy3qGztpG5GEZtLaqS3dVq1vhoiUGk/OpAZe3zuK48zUxup9HNEr9rkcIYS"
             "I3TcO+dQrmY9qmOZlXLz8x6s3tDq+m1A3wN9EVZKcpFuIkMGrE1EXPsYPXtNTtv68IGMI28V9Tc+0HS9"
             "X79HGMZ/gmzc+ddmIPfUg8QdbrZqdVPXOv4R8w+brIO2lu6Jk2uk4Y37DO4xqX5GUF3vZy/WcmRoWI/k"
             "+5FBPJyY+aQYbBsG6iQ1DmO9ZtJOtC0OXmJ1xI3PVbPf5uRSuXUeaPIqXjXrWex3XP/cXcjrNgVQLr/i"
             "KokBVXvtiCB8jeOyQqlszSUh78efAcGDB2ZdK8YxelOTK0KOmubcAn/ZPpfQyjxMmP20jLQ2ZthxhRwY"
             "Jd05/fSVhqfMstwB+5eifGHdubC/7Fs="),
    "04.1": ("jzj214yoPGDgRwI4tvQ/+4U3aQ0Ut07rGRO7KRASCN37o5tM5tMoMucWuWiWu2EhdW++OP550ecl6FrX"
             "pr8h1Z07H7NA9oQQ0DaZkp2x7SZLy4Ov261RFPCm2/BR3RZ0ygs0ZeMz0Yr1ubWWO/y0zdI="),
    "04.2": ("tVPOvl6XOmTUS7E9nu8dmjzrHBHnJjkjlGDNfO67fjwNsGtzyZyp9zGG4rIdC87nxG2loI6KEyVVdFsH"
             "JFDJTQex3+MUaJKQXeASNwT5J5G3CI8ECPncDBHhw8P7E8Poz2h0I9JBt0nr3lQTh5G53GzVHhufH/eY"
             "Ik2kMVL5Scl/IpwHr67zTTiR3TvAZhTipIU5vRAHunYCoJiSu7d3aToT5fW3xenuQR+QgZ7oCBkmKw5e"
             "wwp+7nTWMCsmgFlpla90e+QPSZc7oBQftf0o1Jo4Ch6iNtzCCSbEEFHbLBsb0+2Q1j5exz+VbHMToU95"
             "Kq8X1ticr248pg=="),
    "04.3": ("RcJ9d4BaCeKrsAoh1wVrHFvHkqjn+fSzg1nPVIzSLyZEUn9OKgOYAsO8kbkemNgjpgrJreJtuSFqpI3i"
             "X1ZhwuoKCw+ncmaTYRFBYSA1Dym8BrKT/6gOMN4h41nd05kS5/BwE5+FwP3OAi+Yyw14XDkhegzaQKrB"
             "GptcBN93FsDefum2iF2uHwXWLLHlB2rJIazMczoMIVhGxhlnUh3v1MIei2zu3irZV4/MgETdg/gkjEEy"
             "O4v2zcdZVbVQjpxu1cGnaZ04YCQoScoqmEBNC2VMUBfgjraUwSzKDWNlc2EACgY7lxOnFbn7WmqZrCQ4"
             "z7HZTXmJLrbUgn/5srnTLpZkZf9CIAJWy61c5eUoLs3YMQKpE3NNszLPGkp6l5XtoJ8ZHzwJFwIVFOtM"
             "st7NirheIgml69fkoIqqIMjIQcVTQxLXwpXYprMheGR2Mz3LbkKsESU6Pnqw/HDt77G98CjQ6Z4kCyfU"
             "swPJ5iJJTFhrtRUU4v7kZfId8KWd"),
    "04.4": ("FxXPyJYW21Lbu60b2InwniYm21BIqdnPeV6ytd4fmLNdoEwGr7YXSv+V7+HXXxcnvYQWF4mKs4D2PpE4"
             "Op3kRX9ugX4wNtxJZkIOd18rd6Oya632Pe+S5dYHjTUH6ShNdibhNkDY27EOoqOaXA9Y3Ch+AxPr/p0K"
             "++3/xz0OSeclhLK4ZKkgWsye/rxWfTaFS7VmciKn+2vqnFCGMWt2zPX/IbQTd1beisKmoABOfUcKOZI1"),
    "05.1": ("IcNweX9kY08BNzJKu+uL6DJG77jsJt17isUhfX27R8DHIH4jOdw//ywjKijV+dYdxK2+6vbfUiVqPA/5"
             "X/GE025fMDtuZ7XnbyasqohyEsS+gsDzNbHOeea9L+Hf9Qu+OiUEwSm2ZIfxLUg3ZjU9JwvObMkTXFtO"
             "jWrbU1NJ6EAqz458NNJKfI4i15EMA2keVG378WoGK9eWnnqHMfg2Nt8uMIg2LtGeGHpLSjiR1JS31pi0"
             "y2qm+S1AJkLj73pzBcaBUkRevOj4U5upklAfzUEnpjU1vf+tYs7HP289IZgQkhXkJ7hmEDGymp8f+0jY"
             "yDRy2TnxOeDnzVisJkShkMnmvdbmXJ+ft2zUGVUsa5f069fZ8CRGfhUXXX6B6RT9rkqMj1MFT9Cga5DV"
             "Bg/kMRiKfLxgivmbD7vI5hPkS4UBvW8HHTKPMBMNjybgW8XkBwia2RcVsDuNLE0xq9wZAZ9EXanBf1co"
             "hRr6r9rsn7irW6X1pZZJhh4WH042V7KVIxdFlnuy7TgurOUgkQ8h+ql5DNviuNN4ih1WgxqQCd4/3KhI"
             "WB4m/AsJOLJwxSLMx9u2jVyn"),
    "05.2": ("7jUefzhQYAUqRk/WTTlxYWmHk0CvtwhNowlSf5Q1FrziGPpap+ENMlnFiUdZg/PrjqErPj+/3Xr8e8dJ"
             "DzVm8XjTVQUaJdjOvANHU7J5FaCUiTjrIEJlPpo0sCfTheYMzp8a4SWUPKq+UPzt73nHVeBrWtWPs4wo"
             "w+eJvg2E8PsaiABho49CiAuWWZ2vjnlDg1jagXVIA8OmhZInqdmzsOLHyIqN1Ox09IlZ7WnJi5P9/SmO"
             "mO72kWpHGfKTnsOsI8ugv6q0lYjgZiQ8MDBZJKu3+JdEfqZxGAym2gCjMTRhvJdrk6NVMMGyMJi5/4eF"
             "VkwbpV4vcf77bp/eC1T1HHuK4lv3kggG0PVdhCGQpDJziivcJG9yZrlXDfduGoBXhQQ72F4BHkJl3FIk"
             "RdXzUfft+3fmfoSdScUWNRwEPyYkdgxREokB+fl2THS+qb9kZTvMaHZL+PWQ0AXA"),
    "05.3": ("NZZzs47uKJ9Dru0iKlR+yAgsEyxnkeyTXQ8Y3X71uT537MPZvE2/shgazGni5L8dd3gNJSOXA4Vr5Geu"
             "HCGr97u69eAoUj64niVLl44KtMbgBzE9kA85+tOdm4djJvQtspH3j8kanbTgM08DT+jTFHa23rVpT79T"
             "TtkXiRZzSNyorM1u4NLSPdb7ODSOez2ks/Y8c37lIc41aazIaWC20DUyieIMJYL2cJeTkstktAUanQZ0"
             "8Hoq8Gakh8jpl+6qU4Itd+CNYluxGsPmCBOGhdpVThJd6O3EE3UI9WIWJKsmfg8+fntLYpYq5ddGiy6V"
             "6xJch7rDxXzPIs41g1kFXPLtWn1PfK4z96jo77DAKVreAFHXmaKPWEyzsXmbNzokIbf3xprlRR6zFaJ6"
             "IgQaDEMbj17/u3YqWkHzpHNR8PtxoaGizFtmEdmHEg0gwG32slBxlU5TzOtfUqZo9LYY7OYVhA6KM8oD"
             "VZvLcw2Vjzi2HRBjyUhFsltcWUSYuJiz2kY7QeO3SVlVhqFpA/DNUtQISSvTpgh799PDBMYK3AGPMfgS"
             "2qUu/mxI09U18mko6O0="),
    "06.1": ("+Y/11G5hX6gWe9EvCSoIppw+GqcF0dIgviAcpC1F03Ac+Jmh39sqr/BtkhFhQRYzlkOfbaXWez272ozX"
             "KnyJ/+OmI+Dsfur+7An7cKcDu6fnb7P2bah5m2aDuJuncnV/qV35MleJa+tnCBM9vd4QMr7jaKzFDW/2"
             "qd8jhYjfzK82e3Wulis="),
    "06.2": ("tMZN9fr6LJ2Ci7wKUoEywZHLhpkOuSYOXE3/lX3RumWMT+woRBfe9u9gjpub1wgmfpvjBh4PbepykHET"
             "uBO9UmxudRjL8P1RHbnoK3RagYIZuGqFO8o58WsuyNp8gx9xPBpozW495WeaBWxJyrVNdVUMInKoDL2p"
             "rt3Sedto542jqC/WXaPEwg9gm7MOr+otjPETiLkG25VLTE1sQFX5iW6zfj27NK4okORW/hCwHlYdd+HR"
             "iAYDmyIKKnXptN71uhLzP9CNyYwhSSryrBXPMPr6/H6jEHEnDHt3TKTXG/caDazp7/YZHlZoK4HXD1kD"
             "1UjTjZlKMfAa2u0sYkaSN0VJ4Y+0IYvPNMjPE6Cf8GhlvGRaL2eSEotuXk6R+oVq45Lfq2sGUDgpyw=="),
    "06.3": ("Z61u2KjS/tIGlIKYEwSxcB0I8LrdIRn+n8gqn47qA3E0CExZy5GS+q9vjBg8L9TVZjX+uRwxs1uB8gCY"
             "jKtW6A8JQ9o7vmWXsw3mXI1Icfkmtu0F83cNO0ZYBHnSbP3I3BcjMSw1VIu4c1U6lh4ljr/8yISctJdv"
             "dWwPMjPBxABrncbFGmFKkfInpuQweGMyurc8dXmk8cXevaC3tHU83YXNUc6W+812I4rASdyLGO11F672"
             "ZH3dAwDMMf2gPrD/BBHsgnWAQEIfY+dUtezH0NW2gktrdYtAglNjSwyFDuHj6OGM/q4GXJPxMJ/r65df"
             "LzxtF5KkSAdpBy1jS2Vg7efg8gle/VnX95ZV+3O32c+TiEWiL+qObSIPzefy5Id8v2m6Lzr/C/pT2ZRk"
             "aHq4pGfK+DBbcIexRcHih0K0IkaRQ8g7DKDX3aEWIKgvWu1LxISng09rqwQv+eulEEo="),
    "07.1": ("QTZ06FScHWIgz8p0kPkw6e/ZGFjou8mrBLWoQQEj0gx53e3AMwIWWg9cGF38ihZLb6kgeraFDMRxrTOI"
             "FctONVWfLlcoHgRxxVLx96h8zEND3/jc4YZ3oeTXaWzvfH9suKprZwGZtlRGhMvph/IYcS9tnBoPj+to"
             "Kw2qAsNnt2L6R1skilHuzWnj7cWJCZfANCYcCBdiK/XFsdPV2HVlhZr3RS0eDOv/4Yi+RabSlDIB0HJP"
             "ktE/WTkZt7juHLssAk45kBQeFlEJ5qyI7/PfPT3c"),
    "07.2": ("gfqI7hedkPnNw/HV5Ib7/zhnSaniRGlUaP9qfTnSVinvUo0KFdsoaXBJTjkKiM6VSWR+PFru3u5oOHXC"
             "EDONsxkOYc6Y+OMz3fuEnxSE4wq/aUBHt/5fgy5damB0HdHCNDx9sB07/9TUVpA2jbFU3t+j+xzpDBi4"
             "j2YOo2M1TxlpSFMlYLbj+BK1HK86t4xBu3UJ0U+x2sxmdL3gfXjP428Xh2uBM4qmCYUgo9xFRXrf/pmv"
             "3BanYK6ltrjp0xlEuKnX3yEz15Mt4ANFpjFk0vEXzSc="),
    "08.1": ("d6jaq0IVOUb2i2E6+Lz7dXmwwbHEH0ItoHA8kvbZcGlSi2iou2huK2lyDfU24kvW+pNWr1JBQFb7/pJV"
             "Na4U79cQvw/YJQdF25kjM7qfrdgAi7jJopQibVMP5v2KA9KzBN9fgOcgPe3ivAmSwbqK0DzO+9d0/vuu"
             "S37/SmqJAev5Yrl4brUSdA=="),
    "08.2": ("sGJFwuYxWsLpKNBMWtvSCO43/aKlv3OEBuwIzfoWLj2rdSZRHgEt98Vn0dmcXcf3MdnfowucSWJnNkjL"
             "BM25Xiac8MX9ICM/ksJywwP7aNQ3FHGqQLas6RbiOEjzvwO47P7nxUdoJrcou9XFM6UdrEaE7se/gOqi"
             "A8Ztu1JXkpXRzQ=="),
    "08.3": ("gcWSqXDtbupUNjiJTTiPWRedFK+9b4F9vINBTGdmmJgtmM9LWAz2XyGN4z2ba8b7fMreClVOCcuuFgZa"
             "3gUxAsUWyvEvaazar5o+Sw5g9UJygNPbF+ydcBZesDdcnC00AGmVKTgxIgDGSIiknukuUiALe0WuHVi6"
             "GFzi53ihe1pbaWGBrQ5nC4MIoRJVUf3wLFDZgx+x4nzRjlfy3kAjpLHhETqh4hiuxJtu+S+h4S59"),
    "09.1": ("cV9n6gfVhSwFya52EQbCItjhve3ABFhYbtWwRPW8tbMNFmgx5iHrBw/7fcFyewtAlMO7La9SUddiROLl"
             "8sytFYKj9DtdJk78nmEeChAQrlDOokSHZzive9K3/I38QGiXnWP0NXOdXOy/67Yy0DMZlTzEsj+QubZH"
             "UHNJgqYvBEweDlfLlL4YfAQ51lnIuLuEYO+1D2DxZ2DeopIojegcsNRKKc/+lcX+i8+BfBN1h05jsCk1"
             "G9X04TVbn6ERSDOaIWWDEsamJNvmySJgYbra0l3YWmx7goXZH6mZBlthJisVCa5acv/LbY8jSiVYOYsn"
             "zmkyqHdlFBEJtYZa8Xo+J+9OqLHj5BeZ7DT3MQmRE2lnN3++I5AA6qwxD+ZDVI9TQjZ/gZi1j/SI1v2i"
             "QFPLGOpzIHSlQ7f4s4src7aMiPc9UcBGYH0FpDovGfMA7lZSnv/gTCa/06MICmnUlu1vgneh/h2ptfCT"
             "1DlIH6qIv0AlLDYGCpadfS9pUoeRoX7IBgTWJuvg74JWJCVydb/l2EBJanrL1O92HzEMmphWCJSR53bV"
             "O4adTNAUs5qoCzod04mBhD170sPg/XsW5s4Hi0td0akUt4KCLDQsR8D+utaJCDzjJIxBJ5QCh4ZKJnOs"
             "02MPTWoqRS/rLspPXBBbK6DTl9lcJUH3apeGcnqeCT6zS7MPdhNkA7GD0MRfGTX2a6PDvWc06UsQLxLS"
             "t7PvO3sXypIrqGTuVIzbWUbO9tJ0FpK0z92qf7mFCLOmHYk="),
    "09.2": ("ilZGMMGkfaVYspKu9Shp2cCNl3SKvnE2fY5CI4xxnRxnjKirJe8Lbyx75BXLbMAWEBVZe4u/MwKovBzv"
             "RV/kHJ7nZ+LlEkw1iXeDHTlom0JmCa54Dku4UqDretAhlqwQby0kWoSum9SR7RhP3/7JCEHogdysjckr"
             "F3QZjpV3dbapsW4nGaMtnaKco4RrYq4IeGU0fOeMSqYHBsHBDBc9Mb2SVeswCJInHWiTLMiB/oDTuFT0"
             "C9+yGcCYllpQ39CryLqKgXeof4oiaHWUObMOF/jPdYaPfrTFyp0G4fBmXQ=="),
    "09.3": ("F/Fl4L9Y49qd81Dv4J+4ySIMXu227EtW7uAYSgFx5MPxVNCTAGOy7CfSJv34rCKCIcQ9UrCHeDftgsUw"
             "BqDN+1HMlPqY90lnGZ+5AGvaLSqN3StbFjyAS+XkyM4oLqK00ZMZc7TUxC6EenbrXEVZEr58zSHlqRpE"
             "zfEQqTnG9dFENbqxX/ogzjvuTuSlOVEPXdFzv6y5LVIOo0UHWGh3FwcN9Dyp0bsWEkNcl9Xard2XmjkC"
             "Y3MVJnsqSdr8KVFOghZYSVZ/VOQyBCMjKJ9ZUr6m9Q5wTl+HYMkjQs5fPxSXzBtVkZQRllYUq7WRRzta"
             "sTb1KXHC/EYQW59LgzOdq7zSNuPoMxICWbhgOHaCEJHLQK/I4EBWdHsF9xvIfq/1YmkIQ7sRfLh23B89"
             "GSy2T4UrQsGlYlbs3QhC7w+mIps1jbWnXaSWz9/mvO4wE9jfc48P5rf5HNDHfmlmMaL5hIBNPSbwzpP+"
             "TbowrgOx/tX1r1DVmXFrgLQTaadI1NzCtxEN81Fu7PSXVq63bbiHzf6dqXwJY+EHDBFPMHosXeLGLSyb"
             "WHoO0JEXbTGiyFYoWhIBfizzRmZBA39fyjggm/dYFm/59gJur+96JTeLC0B6uS289x7elBe/"),
    "10.1": ("ArOJzelQT0L56ivn+q95gWfWkM6IK6JpHbdkc+sWCfAQGwA+FMIhyMTYaB60qI5BWiveFK0brcDiepFt"
             "bE9UvX1aoF5uH03ghWOo4C24t/yfHNpIlvo4VzFi1kEkqfa39lu+lGXgs7A7hwGM4sV5RBHkuKFhxaKp"
             "6MNaopf9LLrA5gQ/sCFc5AqVztPgzh5dJEtACqHI6imiS8gNoVnpDyPCErYv8JojpOcyug5lZbFWypjX"
             "GzdYKPCTV/VflOLYG976vNBbSLW4Sym/yhuLrSwmH7WtWsxcLqCPI1Dd9jECTmZJTzQA0xf37herkVba"
             "oRriVr8/Bg7y0FA9Y1bEAxlUuVV1J8eLy9xMw050EV9S0fyznXpu6w90BfP5BcCOWTsiNoWSYuWh7NIU"
             "P6rSy4Jn6l1Clu5G6Ud46rHEvLJWKmGU3jziwFWcsNeEvjhvHQwo1E780d/HCeQGGP4pYpA1ISCaaL9R"
             "zDdloQsBEs3IPJf0g9RcvbT7TYbYCc0ebk/e2TYolhDbh+wczepy2o3aNg/n+4w="),
    "10.2": ("f3SOrlijKbgA+Eoa6vyNloprkH7FO4vlAkbffMVNG//+odQ8iQjUjE2DVp3wSnghQksPqUfqmn136SGb"
             "Eqcg7ULrTessQ6Gkd2rTqEw1mZFzDbUlPincVOAVeBWuGKQUodWzUf0Df5QHVmYGWoZkcmNzba7Evqut"
             "ukb8sxc6La3Pd/IzQBn+sel94ld2IAsc+dXKwL/uHPLOWXUl5tN/72/9WdeZiVQ7hISkNF4egPE2yVs4"
             "0kxu7R0C3dGOu/idfXc44Z7q4C8BzLNWpDLYgwefE6sRnu4Bu2TGoswdW30sKtDOduyPjiWDn1Y97bzt"
             "5fsAG3Q8SXcgZ9rEen+pgp9p2QyHIksIuhaN3SSgIqtsx5sAbiEi3ehj8kEcgFokuQ13QD1rSXO5d5Oi"
             "bs8pOD4PRWvoW0XsAda5t4QZcSp5dcfoJZu1qezT9yjCjueRvfMflvqIyiD6WSeK+xYIdyVZQXSnk9xQ"
             "X4RHjvfsRZju/j5g62aZ7niYUW/hGW9QXThZqURGmRDIeUdGACeD0NkH9nLA1GX+ESn34oRGSnNBfkql"
             "J2I/K8juLcu6Wy89B3Dth/AngH3wyrwnq7UDaJbv03AaSpybk+xKV7nKX6G+EFkCXyADhLcytEuHybTc"
             "yO3IZC0s8m1yKadWldEPTqgaavQotXHz8x4Kv5M/7vF0VYz7cfLHdWKa/z9XBV8BL8ViRE27zL0c7Y/O"
             "cbhmY4aSEmpLdTOqhQbg3QyHeQ=="),
    "10.3": ("57bH4dbTRWgN6sBYFDuzqIWAp8UztF/ibHSMHggGYQMSLvSA9EVswiK9EB1Sticvj/NqcW+2aTZiMYur"
             "5ggVDqZDP1WeLfcjVY77AZbzJJUfwoqRvgrMKID2vHwXXviR36au/Z4mILVHZtZJOr84Zf88NdtTmt6L"
             "7m2oFxNC72KSKkOe+2KlWFVyMrWXkopJ1WEJmk4W1mmSk5ICcXn7gQeEJdB9glQdXXwE1LiOntlbUOVU"
             "j5ps3CCQQoDvHhYa90UPN81eZYoBU89LA3Cdmj4elikAfPW65ER7IueuThGLjBc2vumM/Fjji82hKnPg"
             "AAbYbWx7TyhG/o8+rk2vQMZkQsx9E4tqfe0GZjO2lfF83BzMmwpeyF2vggdzMq0FG1o3W83T/eAPTsov"
             "xkG/iXzItZ7tM0w90QMig610kPCnBv0Ss3lqjvfPLE85jww/AbZ4ADVRKKniIVom2r23VDHFIdGsYNBI"
             "mPvCEdc2+5qUpD7fqpDY3sN5f+iWNWzE58XtwFn9Ehu1a0qpT2JAgAYuDFExSzctKJkFsWMrl/AXt+EC"
             "DgCZyqlEPVOyqy/wExo6mRWKp98siAUQ7vq7yjWKTaQNuDY1hxM4bWcCBzZvkCqu27XU23PeUIrVqLSy"
             "YQiWsRyQQotu7f4jQDxMLLsfm6qRkhqdUVAOwo2jkcNDBubzL5GgYZ59dY6TPw=="),
    "11.1": ("Ax/SYsZ3oT5CfaaQkGiHn0rU++4ySaND52kj8Adwt9iN5vtLv8GhffWf22n/ohzBiOl+qftAsFmPcSdn"
             "q7xz7UwjExpBbTuSwncn6eFbgrAJ2oZx08d6ZJT7Bj2oQWgax+dlvzwMy5H1GY1vAUd/KS1YJnLQzy8U"
             "0lTW0z8BuUVPJfR23Y6IIYPmvUMRIZzc8HkhqUDiqXfn84ZsfcmGgMXF++Vaw+4I+kRtCS8WFD+2vqlb"
             "N5eNvw=="),
    "11.2": ("RbspB0/gdYH7VckEC6tlFaR2/S2qupbZNUjpGMNU93d+gu3TnPP8hMYx4I8ByNOIpEne2cPlg4wLAfyM"
             "5RD1QHV6lSbugHNLefocVdnmC28zrJOr1e8GqtIbXPUPEjQPQDz7mT+7e8p/PvSZs+bjRpx/8D8rGseq"
             "P3iw62X8RKB60VlDCHeICUrAkVPurIjlj7eustWAaHm1cofcn/TcMVdaBo9NlZ+n6WntRMUQ7TlfsKWA"
             "0HuARUXNrD5CUkLbRzTx/glE11EqaZ6K9J1jhDJUzh1pVBWuTsI89HUpYx7QmwBe3sQ9cUZ0f/XHxEff"
             "mbBruh7e5vwxwhXMPweoNvCWCDkwo63ZDPSK+doz0aVnHOKZB6Wou3/sRQg="),
    "11.3": ("thfIVY1WrkVz3RbIDSVY33m6f8FjTKBymPwQzGEilpbiEsOjgKyzesot5tZ67pbCh3VH+j8H46uDbnzf"
             "YBN5f+nagIltOt2Ib2DjQWFwdgFs/lsRIMjis3rLXGVHks+RZjRel+JU/bW0dKw+ebxt0aylgaqeW/rA"
             "6WjqUk911KITDg2MqcyiSOCenUERXnD4rtsn7rq2REfyPR4VnWWNrkNGQ7JYgbGjEymjDuUl67oKjuw="),
}
# --- end of scrambled solutions ---
