import Foundation

/// JPEGs written by third-party encoders (ffmpeg's MJPEG encoder, libjpeg-turbo through
/// Pillow), small enough for the fuzzer to mutate: baseline 4:2:0 with a restart marker,
/// progressive 4:2:0, progressive greyscale, and baseline 4:2:2 with a restart interval of
/// one MCU. Kept as base64 here: the seeds must not depend on those tools being installed.
enum JPEGSeeds {
    static func seeds() -> SeedSet {
        var set = SeedSet(target: "jpeg")
        set.add(
            "baseline-420-restart",
            Array(
                Data(
                    base64Encoded:
                    "/9j/4AAQSkZJRgABAgAAAQABAAD//gAQTGF2YzU5LjM3LjEwMAD/2wBDAAgMDA4MDhAQEBAQEBMSExQUFBMTExMUFBQVFRUZGRkV" +
                    "FRUUFBUVGBgZGRscGxoaGRocHB4eHiQkIiIqKiszMz7/3QAEAAL/xAGiAAABBQEBAQEBAQAAAAAAAAAAAQIDBAUGBwgJCgsBAAMB" +
                    "AQEBAQEBAQEAAAAAAAABAgMEBQYHCAkKCxAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAk" +
                    "M2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKj" +
                    "pKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6EQACAQIEBAMEBwUEBAABAncAAQID" +
                    "EQQFITEGEkFRB2FxEyIygQgUQpGhscEJIzNS8BVictEKFiQ04SXxFxgZGiYnKCkqNTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZn" +
                    "aGlqc3R1dnd4eXqCg4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2dri4+Tl5ufo6ery" +
                    "8/T19vf4+fr/wAARCAAgACADASIAAhEAAxEA/9oADAMBAAIRAxEAPwDy5jcyTvHDztXcfuAKoUEszNgKB6k4rsLbU9ZgdkWXaSgc" +
                    "nZblSmCd+8qU2++cZ4rJtmVjfQ7fMd/s7LFnBkWI7nVT67ew+b0FdAjJ9j+y7MS/6z7NuO4RmbzNm7ru2dvv45xXjZtmEsfP95Sj" +
                    "KKl7sZ/vORVFGTkua3urSPwpabnu4nBQeK9+Tbo+1cJefM4+zj7rs5JX0k3b7LPNP9Js503fI23cp+RlZWXhlYblYEdwSK6aw1HU" +
                    "izrDJzjc3yxYCrnlmZcKB6kiq9y2z+zYU228sbzPsds/ZxLKHi8xiD0XBO75gPvCrtk2/wC3xsVnkd432ocCby5WaTYQB1HIxzjo" +
                    "K+irZliqlHnlOTe2s5NW9tyc9r25be/8drdbanHPDwnh6uHlJulJqUoP4ZSUYzUWray5ko/Be/S+h//Q8luP+Ppvw/8AQBVmHv8A" +
                    "hVa4/wCPpvw/9AFWYe/4V5D/AIcf8MTvzT/kZT/xVP8A0uZzkf3h/ntWvF3/AArIj+8P89q14u/4V9bV/T9Tgqf7rU/xL84n/9k="
                )!
            )
        )
        set.add(
            "progressive-420",
            Array(
                Data(
                    base64Encoded:
                    "/9j/4AAQSkZJRgABAQAAAQABAAD//gAQTGF2YzU5LjM3LjEwMAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0a" +
                    "HBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/2wBDAQkJCQwLDBgNDRgyIRwhMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIy" +
                    "MjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjL/wgARCAAgACADASIAAhEBAxEB/8QAGAAAAwEBAAAAAAAAAAAAAAAAAgQFBgP/xAAX" +
                    "AQEBAQEAAAAAAAAAAAAAAAAEAwEF/9oADAMBAAIQAxAAAAHL2FXzMzVIOzJTjAxZObUb6cf/xAAeEAACAgICAwAAAAAAAAAAAAAC" +
                    "AwABBBExMxMUI//aAAgBAQABBQK/ITF5OYBfRLEZGRterlXXrsvUTe4zuCDyMZ3BB5Gf/8QAHhEAAQQBBQAAAAAAAAAAAAAAAQAC" +
                    "AwQTITEzNEH/2gAIAQMBAT8Bmrty6+J0YMZjOyu9kp3EV//EABsRAAIDAAMAAAAAAAAAAAAAAAABAgMEESJB/9oACAECAQE/Adml" +
                    "3vsieq1w5Z4iR//EACIQAAICAQMEAwAAAAAAAAAAAAERAAIhAyIxBBITQjBRYf/aAAgBAQAGPwI1pCBZYfAgeDCKGa1EyVt+1PEt" +
                    "3PZ+OdPQKlwSUfVnE16lXsSDj2z8P//EAB4QAAEFAQADAQAAAAAAAAAAAAEAESExQVFhgfCR/9oACAEBAAE/IbUsHyB1PxUhhbr0" +
                    "vFBwYIIR87ZzApHpPDqSIWV982N+e1t6g7HFTYxAsOLK37FpULat+xaVC2v/2gAMAwEAAgADAAAAEJs1/f/EACARAAEDAgcAAAAA" +
                    "AAAAAAAAAAEAESExkUFxgaGx0fD/2gAIAQMBAT8QInl7HVmGfgi6TkjAlgbvFEV48lb7pf/EAB0RAAICAgMBAAAAAAAAAAAAAAER" +
                    "ACExcUFRkbH/2gAIAQIBAT8QHy0OgbTRehiP4fT2nrnMPyg1P//EACAQAQACAgICAwEAAAAAAAAAAAEAESFRMUFhwXGh8JH/2gAI" +
                    "AQEAAT8QYNy7gACpcAbZYmDclVcg083V4hSnfwDCJYidlwYvg8F5VMHlSKae4soO61nU/oq6Lnc3p0zULtV/oFlfBTnIck6DDcWr" +
                    "RszjNcE+qR6J+XxPRPqkeifl8T0T/9k="
                )!
            )
        )
        set.add(
            "progressive-grey",
            Array(
                Data(
                    base64Encoded:
                    "/9j/4AAQSkZJRgABAQAAAQABAAD//gAQTGF2YzU5LjM3LjEwMAD/2wBDAAoHBwgHBgoICAgLCgoLDhgQDg0NDh0VFhEYIx8lJCIf" +
                    "IiEmKzcvJik0KSEiMEExNDk7Pj4+JS5ESUM8SDc9Pjv/wgALCAAQABgBAREA/8QAFgABAQEAAAAAAAAAAAAAAAAABQQG/9oACAEB" +
                    "AAAAAc+mMjYb/8QAGxAAAgIDAQAAAAAAAAAAAAAAAQIAAwQREyP/2gAIAQEAAQUCPQumRlqfSp0g1xsOp//EACAQAAICAQMFAAAA" +
                    "AAAAAAAAAAERAAIhAyIxEhNCUYH/2gAIAQEABj8CNaRCyw+BA8GatUyVj3O2t3PR9mhQbLAko+M//8QAHBAAAgIDAQEAAAAAAAAA" +
                    "AAAAAREAMSFBUWGR/9oACAEBAAE/IbMIPWBDNxZgXXPCDFEEQwdqRyFwtP0ZWS+SgWwbFhz/2gAIAQEAAAAQz//EAB0QAQABBAMB" +
                    "AAAAAAAAAAAAAAERACExUUFhgZH/2gAIAQEAAT8QQRl8ACVVsBtqZyBSVBbhEd+UQwyG4CyJIndP85nCmQO49r78+Dyt/XNBzGix" +
                    "OU9Q3vuv/9k="
                )!
            )
        )
        set.add(
            "baseline-422-restart-every-mcu",
            Array(
                Data(
                    base64Encoded:
                    "/9j/4AAQSkZJRgABAQAAAQABAAD//gAQTGF2YzU5LjM3LjEwMAD/2wBDAAoHBwgHBgoICAgLCgoLDhgQDg0NDh0VFhEYIx8lJCIf" +
                    "IiEmKzcvJik0KSEiMEExNDk7Pj4+JS5ESUM8SDc9Pjv/2wBDAQoLCw4NDhwQEBw7KCIoOzs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7" +
                    "Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozv/wAARCAAQABgDASEAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcI" +
                    "CQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0" +
                    "NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLD" +
                    "xMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREA" +
                    "AgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNE" +
                    "RUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK" +
                    "0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/90ABAAB/9oADAMBAAIRAxEAPwDgJDqE1/Jb2Y3bE3n7oCqBkkk8AD1NdNYeIPFl" +
                    "pO8Mdz5bGMSFvLiKlcE7txGMe/4VXEVWliqvJV15W7HRisPOriITt8LaR//Q8zH9oaVfxiQeXJt3IflZWUjggjII96K96Wa1ppNS" +
                    "PVwVarhoOEXbU//R5WwdHOq2nl+dLL5LJBnBkVDlgD64/GtmJ4v7E/szydtz/rfsW87ghk37c+u38e9fPV1Nteqfysj6PE8scVN2" +
                    "6NfO5//S4rUJBF/YdnDssrqCSSTypHz9mDuGTcT7YPPPrRWNOC5FzK+/5s9iDd3y6bfkj//Z"
                )!
            )
        )
        return set
    }
}
