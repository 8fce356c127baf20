import { useParams } from 'react-router';
import { usePack } from '../../features/catalog/api/catalog';
import { ProductDetails } from '../../features/catalog/components/product-details';
import { productActions } from './product-actions';

export function Component() {
  const { slug = '' } = useParams();
  return <ProductDetails query={usePack(slug)} actions={productActions} />;
}
