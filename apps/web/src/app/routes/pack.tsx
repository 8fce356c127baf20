import { useParams } from 'react-router';
import { ProductDetails, usePack } from '../../features/catalog';
import { productActions } from './product-actions';

export function Component() {
  const { slug = '' } = useParams();
  return <ProductDetails query={usePack(slug)} actions={productActions} kind="pack" />;
}
