// JSDoc types of what the wasm handle returns (src/ime/mod.rs `ImeOutput`, camelCase).

/**
 * @typedef {object} PreeditSegment ranges in UTF-16 code units of the preedit text
 * @property {number} start
 * @property {number} end
 * @property {boolean} focused
 * @property {boolean} converted
 */

/**
 * @typedef {object} Preedit
 * @property {string} text
 * @property {PreeditSegment[]} segments
 * @property {number} cursor
 */

/**
 * @typedef {object} CandidateList
 * @property {string[]} items
 * @property {string[]} [annotations] the form annotation of each item (`[全]カタカナ`,
 *   `[半]数字`, `[環境依存]`, …; empty: none)
 * @property {number} selected
 * @property {number} pageSize
 * @property {boolean} open
 * @property {number} segment
 */

/**
 * @typedef {object} SegmentView
 * @property {string} reading
 * @property {string} surface
 */

/**
 * @typedef {object} ImeOutput
 * @property {boolean} consumed
 * @property {string} committed
 * @property {string} [committedReading] the kana reading of what `committed` holds of
 *   conversions and kana (empty for a picked suggestion)
 * @property {Preedit} preedit
 * @property {number | null} focused index of the focused segment while converting
 * @property {CandidateList | null} candidates
 * @property {string[]} completions the suggestion list: completions while composing, next-word
 *   predictions after a commit (empty: hidden)
 * @property {number | null} focusedCompletion the focused suggestion (state `suggesting`)
 * @property {string[]} nbest
 * @property {SegmentView[]} segments
 * @property {'direct' | 'hiragana' | 'katakana'} mode
 * @property {boolean} kanaInput kana input (かな入力): each key of the JIS kana layout types its kana
 * @property {'direct' | 'precomposition' | 'composing' | 'converting' | 'suggesting'} state
 * @property {boolean} [refused] the key's character was refused: the composition is full and the
 *   caret at its start (the widget shows it)
 */

/**
 * @typedef {object} UserWord one word of the user dictionary
 * @property {string} reading
 * @property {string} word
 * @property {string} pos the part of speech as Mozc names it (名詞, 人名, …)
 * @property {string} posKey its key (`noun`, `personName`, …)
 * @property {string} comment
 */

/**
 * @typedef {object} PathWord one word of the best path (crates/henkan `PathWord`)
 * @property {string} reading
 * @property {string} surface
 * @property {number} start character offset of the reading
 * @property {number} len reading length in characters
 * @property {number} leftId left POS id (Mozc's id.def)
 * @property {number} rightId right POS id
 * @property {number} wordCost the word cost (the dictionary's, adjusted by learning)
 * @property {number} connectionCost from the previous word (the sentence start: id 0)
 * @property {'dictionary' | 'number' | 'unknown' | 'userWord' | 'learnedPhrase'} source
 * @property {number | null} lmLogProb log p under the LM (nats); null with the classic engine
 * @property {number | null} lmStep what the word added to the neural scorer's path score (nats)
 * @property {boolean | null} inLmVocabulary whether the LM knows the word (else `<unk>`)
 */

/**
 * @typedef {object} BestPath the best path over a session's lattice (crates/henkan `BestPath`)
 * @property {string} reading
 * @property {string} engine the scorer that chose it
 * @property {PathWord[]} words
 * @property {number} endConnectionCost to the sentence end
 * @property {number} cost every word and connection cost, the end included
 * @property {number | null} lmScore the neural scorer's path score (nats) before its re-ranking
 * @property {number | null} lmEnd what the sentence end added to it
 */

/**
 * @typedef {'、。' | '，．' | '、．' | '，。'} Punctuation what `,` and `.` type (Mozc's 句読点 setting)
 */

/**
 * @typedef {object} HenkanHandle the wasm handle (pkg/henkan.js `Henkan`)
 * @property {() => boolean} isLoaded
 * @property {() => string[]} engines
 * @property {() => number} openSession
 * @property {(session: number) => void} closeSession
 * @property {(session: number, key: string, mods: number, code?: string) => ImeOutput} key `code`: the
 *   key's place on the keyboard (`KeyboardEvent.code`), for kana input
 * @property {(session: number, index: number) => ImeOutput} selectCandidate
 * @property {(session: number) => ImeOutput} flush
 * @property {(session: number) => ImeOutput} preview
 * @property {(session: number) => ImeOutput | null} catchUp runs the LM work the last keys left
 *   (the widget calls it once the key's preedit is painted); the new state when what is shown
 *   changed, else null
 * @property {(session: number) => string} bestText the best conversion of the composition as it
 *   stands ('' when nothing is composed)
 * @property {(session: number, on: boolean) => void} setLmDeferred whether keys leave the LM's
 *   work for `catchUp` (default on)
 * @property {(session: number) => BestPath} bestPath the words behind the session's conversion (for a view; not per key)
 * @property {(session: number, on: boolean) => ImeOutput} setEnabled
 * @property {(session: number) => void} cancel
 * @property {(session: number, live: boolean) => void} setLive
 * @property {(session: number, on: boolean) => void} setLiveConversion
 * @property {(session: number, width: 'half' | 'full') => void} setDigitWidth
 * @property {(session: number, marks: Punctuation) => void} setPunctuation
 * @property {(session: number, text: string) => number} setRomajiTable the session's romaji table
 *   (Mozc's format, `''`: the built-in one); throws on a table that does not parse, naming its line;
 *   returns the number of rules
 * @property {(text: string) => number} checkRomajiTable the number of rules of a table, or throws
 * @property {() => string} builtinRomajiTable the built-in table's text
 * @property {(session: number, width: 'half' | 'full') => void} setSpaceWidth what Space types
 *   outside a composition: `'full'` the ideographic space (default), `'half'` the field's plain one
 * @property {(session: number, text: string) => ImeOutput} reconvert
 * @property {() => number} learningVersion
 * @property {() => string} exportLearning
 * @property {(text: string) => {readings: number, words: number, skipped: number}} importLearning
 * @property {() => void} clearLearning
 * @property {(reading: string, word: string, pos: string, comment: string) => boolean} userDictionaryAdd
 * @property {(reading: string, word: string) => number} userDictionaryRemove
 * @property {() => void} userDictionaryClear
 * @property {() => UserWord[]} userDictionaryList
 * @property {() => {name: string, key: string}[]} userPosList
 * @property {(bytes: Uint8Array) => {added: number, duplicates: number, skipped: number, badLines: {line: number, reason: string}[]}} userDictionaryImport
 * @property {(format: string) => Uint8Array} userDictionaryExport
 * @property {(session: number, on: boolean) => void} setPredictions
 * @property {(session: number, on: boolean) => void} setKatakana katakana input (default off)
 * @property {(session: number, on: boolean) => void} setKanaInput kana input (かな入力, default off):
 *   keys type the kana of their place on a JIS keyboard, by the `code` that `key` is given
 * @property {(session: number, on: boolean) => void} setLearning
 * @property {() => number} memoryBytes
 * @property {() => HeapStats} heapStats
 * @property {() => number} storedCopyParts prepares the decoded copy of the loaded model (every
 *   section stored as it is, with its CRC-32), returns how many parts `storedCopyPart` hands out
 * @property {(i: number) => Uint8Array} storedCopyPart part `i` of that copy (a copy outside wasm
 *   memory): the parts in order are the file
 * @property {() => void} [free] releases the handle's memory (wasm-bindgen; `HenkanIme.dispose`)
 */

/**
 * @typedef {object} HeapStats wasm memory (crates/henkan-wasm `heapStats`), bytes
 * @property {number} memoryBytes linear memory (it never shrinks)
 * @property {number | null} liveBytes heap allocated now (what the engine, the sessions and the loader keep);
 *   null unless the module was built with the feature heap-stats (`make measure-web`)
 * @property {number | null} peakBytes the most heap allocated at once so far (null likewise)
 */

/**
 * @typedef {object} WasmModule the namespace of pkg/henkan.js
 * @property {(input?: any) => Promise<{memory: WebAssembly.Memory}>} default
 * @property {new () => HenkanHandle} Henkan
 */

export {};
