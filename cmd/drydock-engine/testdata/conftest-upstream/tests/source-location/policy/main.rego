package main

deny contains {
    "msg": "test",
    "other": "metadata",
    "_loc": data.loc
}
