// Which fields ask for katakana (www/widget/furigana.js): a form's フリガナ starts in katakana input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asksForKatakana } from '../widget/furigana.js';

/**
 * A field's description with only what is given.
 * @param {Partial<import('../widget/furigana.js').FieldDescription>} d
 */
const field = (d) => asksForKatakana({ texts: [], placeholder: '', pattern: '', names: [], ...d });

test('a label, header cell or placeholder that says フリガナ or カナ asks for katakana', () => {
  for (const text of ['フリガナ', 'お名前（フリガナ）', 'セイ（カナ）', '氏名カナ', '全角カナ', 'お名前（全角カタカナ）', 'ﾌﾘｶﾞﾅ', '名前(ｶﾅ)', 'カナ']) {
    assert.equal(field({ texts: [text] }), true, text);
  }
  for (const placeholder of ['ヤマダ タロウ', '例：ヤマダ タロウ', '（例）ヤマダ', '例)ヤマダ　ハナコ', 'e.g. ヤマダ']) {
    assert.equal(field({ placeholder }), true, placeholder);
  }
  assert.equal(field({ placeholder: '例：山田 太郎' }), false);
  assert.equal(field({ placeholder: 'ヤマダ' }), true);
  assert.equal(field({ placeholder: 'フリガナを入力' }), true);
});

test('one that says ふりがな or ひらがな keeps hiragana, whatever else it says', () => {
  assert.equal(field({ texts: ['ふりがな'] }), false);
  assert.equal(field({ texts: ['ふりがな'], names: ['name_kana'] }), false);
  assert.equal(field({ texts: ['お名前（ひらがな）'], placeholder: 'ヤマダ' }), false);
  assert.equal(field({ pattern: '[ぁ-んー]+', names: ['kana'] }), false);
  assert.equal(field({ pattern: '[\\u3041-\\u3096]+' }), false);
});

test('a katakana pattern or a name with the word kana or furigana asks for katakana', () => {
  for (const pattern of ['[ァ-ヶー]+', '[\\u30A1-\\u30F6ー　]*', '^\\p{sc=Katakana}+$', '[\\u{30A1}-\\u{30FA}]+']) {
    assert.equal(field({ pattern }), true, pattern);
  }
  for (const name of ['name_kana', 'lastNameKana', 'kana-sei', 'furigana', 'SEI_KANA', 'kana']) {
    assert.equal(field({ names: [name] }), true, name);
  }
});

test('other fields keep hiragana: names, addresses, a country, a word that holds カナ or kana', () => {
  for (const text of ['お名前', '氏名', 'カナダ', 'アメリカナイズ', '住所', '']) {
    assert.equal(field({ texts: [text] }), false, text);
  }
  for (const name of ['name', 'kanazawa', 'address', 'kanji', 'nickname', 'sei']) {
    assert.equal(field({ names: [name] }), false, name);
  }
  assert.equal(field({ placeholder: 'やまだ たろう' }), false);
  assert.equal(field({ placeholder: '山田 太郎' }), false);
  assert.equal(field({ placeholder: 'ア' }), false, 'one letter says little');
  assert.equal(field({ pattern: '[0-9]+' }), false);
});

test('the reading in katakana: hiragana and its iteration marks; the rest as it is', async () => {
  const { toKatakana } = await import('../widget/furigana.js');
  assert.equal(toKatakana('やまだたろう'), 'ヤマダタロウ');
  assert.equal(toKatakana('ぁゖゝゞ'), 'ァヶヽヾ');
  assert.equal(toKatakana('ちょうー2ばんめabcカナ'), 'チョウー2バンメabcカナ');
});
