import type { ImportType } from '@hearth/contracts';
import { accountImport, actualImport, categoryImport, merchantImport, mintImport, ruleImport, tradeImport, transactionImport, ynabImport } from './csv/csv-formats';
import type { ImportFormat } from './import-format';
import { pdfImport } from './pdf/pdf-format';
import { qifImport } from './qif/qif-format';
import { serviceImport } from './service/service-format';
import { camtImport, mt940Import, ofxImport } from './statements/statement-formats';

/** Every import type's format, one line each. Only this folder names a type; everything else asks importFormat. */
const FORMATS: Record<ImportType, ImportFormat> = {
  TransactionImport: transactionImport,
  TradeImport: tradeImport,
  AccountImport: accountImport,
  MintImport: mintImport,
  ActualImport: actualImport,
  YnabImport: ynabImport,
  CategoryImport: categoryImport,
  RuleImport: ruleImport,
  MerchantImport: merchantImport,
  PdfImport: pdfImport,
  QifImport: qifImport,
  ServiceImport: serviceImport,
  OfxImport: ofxImport,
  CamtImport: camtImport,
  Mt940Import: mt940Import,
};

/** The format of an import type. */
export const importFormat = (type: ImportType): ImportFormat => FORMATS[type];
